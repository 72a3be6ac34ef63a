import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { createCpythonRuntime } from './runtime.js';
import { fixtureTools } from './test/fixtures.js';

const python3 = await Host.with('python3');

/** The runs' scratch folders of this process's CPython process runtimes. */
const scratchFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`concord-runs-${process.pid}-`));

// A runtime is disposed by whoever owns it, and sometimes twice (an app's dispose hands it to the pool's
// disposal, and a caller disposes it again): the second call must not resolve before the first is done.
python3.it(
  'a second dispose resolves only when the first is done: the guest stopped, its scratch folder gone',
  {},
  async () => {
    const before = new Set(scratchFolders());
    const runtime = await createCpythonRuntime({ isolation: 'process', timeoutMs: 20_000 });
    expect(await runtime.run({ program: 'return 1', bindings: fixtureTools() })).toEqual({ logs: [], value: 1 });
    const own = scratchFolders().filter((name) => !before.has(name));
    expect(own).toHaveLength(1);
    const first = runtime.dispose();
    await runtime.dispose();
    expect(scratchFolders()).not.toContain(own[0]);
    await first;
  },
);

python3.it('a process runtime that cannot come up (its run channel refused) leaves no folder behind', {}, async () => {
  const deep = join(await mkdtemp(join(tmpdir(), 'deep-tmpdir-')), 'x'.repeat(100));
  await mkdir(deep);
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = deep;
  try {
    await expect(createCpythonRuntime({ isolation: 'process', timeoutMs: 20_000 })).rejects.toThrow(
      /set TMPDIR to a shorter folder/,
    );
    // Its scratch folder was made before the channel was refused: a long-lived host would keep it until it exits.
    expect(readdirSync(deep)).toEqual([]);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    await rm(join(deep, '..'), { recursive: true, force: true });
  }
});
