import { mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { InterpreterInventory } from '../interpreters/inventory.js';
import { findInterpreters, LocalInterpreter } from '../interpreters/local.js';
import type { PythonInterpreter } from '../interpreters/types.js';
import {
  cacheDisabledByEnvironment,
  cacheLine,
  cacheMaxBytes,
  DEFAULT_CACHE_MAX_MB,
  VerdictCache,
} from './verdict-cache.js';

const found = findInterpreters()[0];
const GOOD = 'from typing import TypedDict\nclass A(TypedDict):\n    x: int\n';
const BAD = 'x = 1\nraise ValueError("planted")\n';
const BROKEN = 'def f(:\n    pass\n';

/** A real local CPython that counts the batches it is sent; its checker stops when the test ends. */
function counted(): { interpreter: PythonInterpreter; batches: string[][] } {
  const real = new LocalInterpreter(found!);
  onTestFinished(() => real.dispose());
  const batches: string[][] = [];
  const interpreter: PythonInterpreter = {
    label: real.label,
    kind: real.kind,
    version: real.version,
    detail: real.detail,
    unicode: real.unicode,
    identity: () => real.identity(),
    start: () => real.start(),
    compile: (sources) => (batches.push([...sources]), real.compile(sources)),
    verify: (sources) => (batches.push([...sources]), real.verify(sources)),
    dispose: () => real.dispose(),
  };
  return { interpreter, batches };
}

let root = '';
/** The cache the inventories of the current test keep their verdicts in (as a session's would). */
let cache: VerdictCache | undefined;
const entries = async (kind: string): Promise<string[]> => {
  const dir = join(root, '.concord', 'cache', kind);
  const out: string[] = [];
  for (const sub of await readdir(dir).catch(() => []))
    for (const file of await readdir(join(dir, sub))) out.push(join(dir, sub, file));
  return out;
};

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-cache-'));
});
afterEach(async () => {
  cache = undefined;
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(found === undefined)('the verdict cache under the stub matrix', () => {
  it('sends one source once per interpreter within a run, however many ask at once', async () => {
    const { interpreter, batches } = counted();
    const inventory = new InterpreterInventory([interpreter], [], cache);
    const answers = await Promise.all([
      inventory.verifyEverywhere([GOOD]),
      inventory.verifyEverywhere([GOOD, GOOD]),
      inventory.verifyEverywhere([GOOD]),
    ]);
    expect(batches).toEqual([[GOOD]]);
    expect(answers.flatMap((a) => a.flatMap((x) => ('report' in x ? x.report.imports : [])))).toEqual([
      { ok: true },
      { ok: true },
      { ok: true },
      { ok: true },
    ]);
    // The round trip that executed the source compiled it too.
    expect((await inventory.compileOn(interpreter, [GOOD])).results).toEqual([{ ok: true }]);
    expect(batches).toEqual([[GOOD]]);
  });

  it('gives both verdicts from one round trip, and executes nothing that does not compile', async () => {
    const opened = (cache = new VerdictCache(root));
    const { interpreter, batches } = counted();
    const report = await new InterpreterInventory([interpreter], [], cache).verifyOn(interpreter, [GOOD, BROKEN, BAD]);
    expect(batches).toEqual([[GOOD, BROKEN, BAD]]);
    expect(report.results.map((r) => r.ok)).toEqual([true, false, true]);
    expect(report.imports[0]).toEqual({ ok: true });
    expect(report.imports[1]).toBeNull();
    expect(report.imports[2]).toMatchObject({ ok: false, name: 'ValueError', line: 2 });
    expect(opened.stats).toMatchObject({ stored: 5 });
    expect((await entries('compile')).length).toBe(3);
    expect((await entries('import')).length).toBe(2);
    // A source that does not compile is answered from its compile entry alone.
    const again = (cache = new VerdictCache(root));
    const b = counted();
    expect(await new InterpreterInventory([b.interpreter], [], cache).verifyOn(b.interpreter, [BROKEN])).toMatchObject({
      imports: [null],
    });
    expect(b.batches).toEqual([]);
    expect(again.stats).toMatchObject({ hits: 1, misses: 0 });
  });

  it('reuses a verdict of an earlier run without starting the interpreter, and misses for a changed source', async () => {
    const first = (cache = new VerdictCache(root));
    const a = counted();
    const before = await new InterpreterInventory([a.interpreter], [], cache).verifyOn(a.interpreter, [GOOD, BAD]);
    expect(a.batches).toEqual([[GOOD, BAD]]);
    expect(first.stats).toMatchObject({ hits: 0, misses: 2, stored: 4 });
    expect(before.imports.map((r) => r?.ok)).toEqual([true, false]);

    const second = (cache = new VerdictCache(root));
    const b = counted();
    const again = await new InterpreterInventory([b.interpreter], [], cache).verifyOn(b.interpreter, [GOOD, BAD]);
    expect(b.batches).toEqual([]);
    expect(again).toEqual(before);
    expect(second.stats).toMatchObject({ hits: 4, misses: 0 });
    expect(cacheLine(second)).toBe('verdict cache: 4 reused, 0 computed (.concord/cache)');

    const changed = `${GOOD}y = 2\n`;
    const third = (cache = new VerdictCache(root));
    const c = counted();
    await new InterpreterInventory([c.interpreter], [], cache).verifyOn(c.interpreter, [GOOD, changed]);
    expect(c.batches).toEqual([[changed]]);
    expect(third.stats).toMatchObject({ hits: 2, misses: 1, stored: 2 });
    // The compile verdict stored by the round trip serves a later compile.
    const d = counted();
    await new InterpreterInventory([d.interpreter], [], cache).compileOn(d.interpreter, [GOOD]);
    expect(d.batches).toEqual([]);
  });

  it('ignores a corrupted entry, and a forged one claiming a pass for a failing module, and rewrites both', async () => {
    cache = new VerdictCache(root);
    const a = counted();
    await new InterpreterInventory([a.interpreter], [], cache).verifyOn(a.interpreter, [BAD]);
    const [file] = await entries('import');
    const stored = JSON.parse(await readFile(file!, 'utf8')) as { parts: string[]; value: { outcome: unknown } };
    expect(stored.value.outcome).toMatchObject({ ok: false, name: 'ValueError', line: 2 });

    const forgeries = [
      'not json {',
      JSON.stringify({ ...stored, value: { ...stored.value, outcome: { ok: 'yes' } } }),
      JSON.stringify({
        ...stored,
        parts: [...stored.parts.slice(0, -1), 'import:0000'],
        value: { ...stored.value, outcome: { ok: true } },
      }),
      JSON.stringify({ ...stored, concord: '0.0.0-other', value: { ...stored.value, outcome: { ok: true } } }),
    ];
    for (const forged of forgeries) {
      await writeFile(file!, forged);
      const opened = (cache = new VerdictCache(root));
      const b = counted();
      const report = await new InterpreterInventory([b.interpreter], [], cache).verifyOn(b.interpreter, [BAD]);
      expect(b.batches).toEqual([[BAD]]);
      expect(report.imports[0]).toMatchObject({ ok: false, name: 'ValueError' });
      // The compile entry is sound and read; the module entry is not, so the round trip runs again.
      expect(opened.stats).toMatchObject({ hits: 1, rejected: 1, stored: 2 });
      expect(cacheLine(opened)).toContain('1 unreadable or mismatched entry ignored');
      expect(JSON.parse(await readFile(file!, 'utf8'))).toEqual(stored);
    }
  });

  it('never follows a link where an entry belongs', async () => {
    cache = new VerdictCache(root);
    const a = counted();
    await new InterpreterInventory([a.interpreter], [], cache).verifyOn(a.interpreter, [GOOD]);
    const [file] = await entries('import');
    const outside = join(root, 'outside.json');
    await writeFile(outside, await readFile(file!));
    await rm(file!);
    await symlink(outside, file!);
    const opened = (cache = new VerdictCache(root));
    const b = counted();
    await new InterpreterInventory([b.interpreter], [], cache).verifyOn(b.interpreter, [GOOD]);
    expect(b.batches).toEqual([[GOOD]]);
    expect(opened.stats).toMatchObject({ hits: 1, rejected: 1, unwritable: 1 });
    // The line says why, naming the link: a folder of links degrades the cache, and the user learns what to fix.
    expect(cacheLine(opened)).toBe(
      `verdict cache: 1 reused, 1 computed (.concord/cache; 1 unreadable or mismatched entry ignored, 1 could not be written; first problem: ${file}: is a symbolic link)`,
    );
  });

  it('reads and writes nothing when the run has no cache', async () => {
    cache = undefined;
    const a = counted();
    await new InterpreterInventory([a.interpreter], [], cache).verifyOn(a.interpreter, [GOOD]);
    expect(await readdir(root)).toEqual([]);
  });
});

describe('VerdictCache', () => {
  it('keys entries by concord version: another version misses', async () => {
    const valid = (v: unknown): v is number => typeof v === 'number';
    await new VerdictCache(root, '1.0.0').put('pyright', ['a'], 7);
    expect(await new VerdictCache(root, '1.0.0').get('pyright', ['a'], valid)).toBe(7);
    expect(await new VerdictCache(root, '1.0.1').get('pyright', ['a'], valid)).toBeUndefined();
    expect(await new VerdictCache(root, '1.0.0').get('pyright', ['b'], valid)).toBeUndefined();
  });

  it('keeps binary entries (Pyodide snapshots) only while their bytes are exactly the ones written', async () => {
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    const cache = new VerdictCache(root, '1.0.0');
    await cache.putBytes('pyodide-snapshot', ['pyodide 0.29.3', 'files x'], bytes);
    expect(Buffer.from((await cache.getBytes('pyodide-snapshot', ['pyodide 0.29.3', 'files x']))!)).toEqual(bytes);
    expect(await cache.getBytes('pyodide-snapshot', ['pyodide 0.29.3', 'files y'])).toBeUndefined();
    expect(cache.stats.rejected).toBe(0);
    const [file] = await entries('pyodide-snapshot');
    expect(file).toMatch(/[0-9a-f]{64}\.bin$/);
    const stored = await readFile(file!);
    const altered = Buffer.from(stored);
    altered[altered.length - 10]! ^= 1;
    for (const damaged of [
      altered,
      stored.subarray(0, stored.length - 1),
      Buffer.concat([stored, Buffer.from([0])]),
      stored.subarray(stored.indexOf(0x0a) + 1),
    ]) {
      await writeFile(file!, damaged);
      const reader = new VerdictCache(root, '1.0.0');
      expect(await reader.getBytes('pyodide-snapshot', ['pyodide 0.29.3', 'files x'])).toBeUndefined();
      expect(reader.stats.rejected).toBe(1);
    }
    await cache.dropBytes('pyodide-snapshot', ['pyodide 0.29.3', 'files x']);
    expect(await entries('pyodide-snapshot')).toEqual([]);
  });

  it('waits for the binary writes and removals started in the background before it prunes or settles', async () => {
    const bytes = Buffer.alloc(8 * 1024 * 1024, 7);
    const cache = new VerdictCache(root, '1.0.0');
    // Started and not awaited, as a worker's boot does: settled() is what a run waits on before it ends.
    void cache.putBytes('pyodide-snapshot', ['background'], bytes);
    await cache.settled();
    expect((await cache.getBytes('pyodide-snapshot', ['background']))?.length).toBe(bytes.length);
    void cache.dropBytes('pyodide-snapshot', ['background']);
    await cache.prune();
    expect(await entries('pyodide-snapshot')).toEqual([]);
  });

  describe('its size cap', () => {
    const valid = (v: unknown): v is string => typeof v === 'string';
    /**
     * Three entries, written a second apart in the order a, b, c, then `a` read (so `b` is the least recently used).
     */
    async function filled(): Promise<{ sizes: Record<string, number>; total: number }> {
      const cache = new VerdictCache(root, '1.0.0');
      const sizes: Record<string, number> = {};
      const when = Date.now() / 1000 - 100;
      for (const [i, key] of ['a', 'b', 'c'].entries()) {
        await cache.put('pyright', [key], key.repeat(100 * (i + 1)));
        const [file] = (await entries('pyright')).filter((f) => !known.has(f));
        known.set(file!, key);
        sizes[key] = (await stat(file!)).size;
        await utimes(file!, when + i, when + i);
      }
      expect(await cache.get('pyright', ['a'], valid)).toBe('a'.repeat(100));
      return { sizes, total: sizes.a! + sizes.b! + sizes.c! };
    }
    const known = new Map<string, string>();
    const left = async () => (await entries('pyright')).map((f) => known.get(f)).sort();
    beforeEach(() => known.clear());

    it('keeps every entry when they hold exactly the cap or one byte less', async () => {
      const { total } = await filled();
      for (const cap of [total + 1, total]) {
        const cache = new VerdictCache(root, '1.0.0', cap);
        await cache.prune();
        expect(cache.stats.pruned).toBe(0);
        expect(await left()).toEqual(['a', 'b', 'c']);
      }
    });

    it('removes the least recently used entry when they hold one byte more than the cap, and says so', async () => {
      const { total } = await filled();
      const cache = new VerdictCache(root, '1.0.0', total - 1);
      await cache.prune();
      expect(cache.stats.pruned).toBe(1);
      // b was written before c and never read; a was written first but read last.
      expect(await left()).toEqual(['a', 'c']);
      expect(cacheLine(cache)).toContain('1 least recently used removed to stay within');
    });

    it('removes as many as it takes, oldest use first, and nothing that is not an entry', async () => {
      const { sizes } = await filled();
      await writeFile(join(root, '.concord', 'cache', 'notes.txt'), 'x'.repeat(10_000));
      const cache = new VerdictCache(root, '1.0.0', sizes.a!);
      await cache.prune();
      expect(cache.stats.pruned).toBe(2);
      expect(await left()).toEqual(['a']);
      expect(await readFile(join(root, '.concord', 'cache', 'notes.txt'), 'utf8')).toHaveLength(10_000);
    });

    it('is read from CONCORD_CACHE_MAX_MB; a value that is no whole number of megabytes is refused', () => {
      expect(cacheMaxBytes({})).toBe(DEFAULT_CACHE_MAX_MB * 1024 * 1024);
      expect(cacheMaxBytes({ CONCORD_CACHE_MAX_MB: '' })).toBe(DEFAULT_CACHE_MAX_MB * 1024 * 1024);
      expect(cacheMaxBytes({ CONCORD_CACHE_MAX_MB: '0' })).toBe(0);
      expect(cacheMaxBytes({ CONCORD_CACHE_MAX_MB: '64' })).toBe(64 * 1024 * 1024);
      for (const bad of ['-1', '1.5', '64MB', ' 64'])
        expect(() => cacheMaxBytes({ CONCORD_CACHE_MAX_MB: bad })).toThrow(
          /CONCORD_CACHE_MAX_MB=.* is not a whole number of megabytes/,
        );
    });
  });

  it('is turned off by CONCORD_NO_CACHE set to anything but empty or 0', () => {
    expect(cacheDisabledByEnvironment({})).toBe(false);
    expect(cacheDisabledByEnvironment({ CONCORD_NO_CACHE: '' })).toBe(false);
    expect(cacheDisabledByEnvironment({ CONCORD_NO_CACHE: '0' })).toBe(false);
    expect(cacheDisabledByEnvironment({ CONCORD_NO_CACHE: '1' })).toBe(true);
    expect(cacheDisabledByEnvironment({ CONCORD_NO_CACHE: 'true' })).toBe(true);
  });
});
