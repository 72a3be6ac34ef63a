import { describe, expect, it } from 'vitest';
import { memoryStore } from '../test/memory-store.js';
import { PYODIDE_DEFAULTS } from './config.js';
import { PyodideInstance } from './instance.js';
import { createPyodideRuntime } from './runtime.js';
import { type ByteStore, snapshotKey } from './snapshot.js';
import { DEFAULT_PYODIDE_VERSION, PYODIDE_PYTHON_VERSIONS, PYODIDE_RELEASES, pyodidePackageDir } from './versions.js';

/** Boots one worker through `store`, runs a program, and says how it booted. */
async function bootOnce(store: ByteStore): Promise<{ use: unknown; value: unknown }> {
  const instance = new PyodideInstance(DEFAULT_PYODIDE_VERSION, PYODIDE_DEFAULTS.memoryLimitBytes, store);
  try {
    instance.hold();
    await instance.ready;
    const compiled = JSON.parse(await instance.compile(JSON.stringify(['x: int = 1\n', 'def (:\n']))) as Array<{
      ok: boolean;
    }>;
    return { use: instance.snapshotUse, value: compiled.map((c) => c.ok) };
  } finally {
    await instance.terminate();
  }
}

/** Writes for the store land after `ready`: wait until the log stops growing. */
const settled = async (log: string[]) => {
  for (let seen = -1; seen !== log.length; ) {
    seen = log.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
};

describe('Pyodide memory snapshots', () => {
  it('are supported by every release but 0.25', () => {
    expect(PYODIDE_PYTHON_VERSIONS.filter((v) => PYODIDE_RELEASES[v].memorySnapshot)).toEqual(['3.12', '3.13', '3.14']);
  });

  it('are made by a first boot and stored by the time it is terminated, loaded by the next, and a damaged one is dropped and made again', {
    timeout: 600_000,
  }, async () => {
    const store = memoryStore({ writeMs: 300 });
    const first = await bootOnce(store);
    // terminate() waited for the write, slow as it is: a boot right after this one would load the snapshot.
    expect(store.entries.size).toBe(1);
    await settled(store.log);
    expect(first).toEqual({ use: 'made', value: [true, false] });
    expect(store.log).toEqual(['read', 'write']);
    const key = snapshotKey(DEFAULT_PYODIDE_VERSION, pyodidePackageDir(DEFAULT_PYODIDE_VERSION)).join('\n');
    const made = store.entries.get(key)!;
    expect(made.length).toBeGreaterThan(1024 * 1024);

    store.log.length = 0;
    expect(await bootOnce(store)).toEqual({ use: 'loaded', value: [true, false] });
    await settled(store.log);
    expect(store.log).toEqual(['read']);

    // Damaged bytes under the right key: the worker boots afresh and makes a new one in their place.
    for (const damaged of [made.subarray(0, made.length >> 1), Buffer.alloc(made.length, 7)]) {
      store.entries.set(key, damaged);
      store.log.length = 0;
      const again = await bootOnce(store);
      await settled(store.log);
      expect(again.value).toEqual([true, false]);
      expect(again.use).toEqual({ rejected: expect.any(String) });
      expect(store.log).toEqual(['read', 'write']);
      expect(store.entries.get(key)?.length).toBe(made.length);
    }
  });

  it('are made once when two boots of a release start together on one store: the other waits for it and loads it', {
    timeout: 300_000,
  }, async () => {
    const store = memoryStore({ writeMs: 300 });
    const boots = await Promise.all([bootOnce(store), bootOnce(store)]);
    await settled(store.log);
    expect(boots.map((boot) => boot.use).sort()).toEqual(['loaded', 'made']);
    expect(store.log).toEqual(['read', 'write', 'read']);
  });

  it('are neither read nor made without a store: the worker boots afresh', { timeout: 120_000 }, async () => {
    const runtime = createPyodideRuntime({}, {});
    try {
      await runtime.start!();
      expect(await runtime.run({ program: 'return 6 * 7', bindings: [] })).toEqual({ logs: [], value: 42 });
    } finally {
      await runtime.dispose();
    }
  });
});
