import { appendFile, chmod, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VerdictCache } from '../cache/verdict-cache.js';
import { discoverInterpreters, findInterpreters } from './local.js';
import { type ProbeAnswer, ProbeCache } from './probe-cache.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-probe-cache-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const PROBED = { version: '3.11', python: '3.11.7', unicode: '14.0.0', build: '3.11.7 (main) [GCC 12]' };

/** A stand-in probe that counts the executables it is asked about and says it mapped `library` (or fails). */
function countingProbe(library: string, fails = false) {
  const asked: string[] = [];
  const answer: ProbeAnswer | undefined = fails ? undefined : { probed: PROBED, files: [library] };
  return { asked, probe: async (executable: string) => (asked.push(executable), answer) };
}

/** Sets a file's modification time `seconds` past the epoch (and so its change time to now). */
const touch = (file: string, seconds: number) => utimes(file, seconds, seconds);

describe('the probe cache', () => {
  it('probes an unchanged executable once across runs, and again when it or a file it mapped changed', async () => {
    const executable = join(dir, 'python3.11');
    const library = join(dir, 'libpython3.11.so.1.0');
    await writeFile(executable, 'binary');
    await writeFile(library, 'library');
    const cache = new VerdictCache(dir);
    const run = async () => {
      const { asked, probe } = countingProbe(library);
      const answer = await new ProbeCache(probe, cache).answer(executable);
      expect(answer).toEqual(PROBED);
      return asked.length;
    };
    expect(await run()).toBe(1);
    expect(await run()).toBe(0);
    await touch(executable, 1_000_000);
    expect(await run()).toBe(1);
    expect(await run()).toBe(0);
    await appendFile(executable, ' upgraded');
    expect(await run()).toBe(1);
    await touch(library, 2_000_000);
    expect(await run()).toBe(1);
    await rm(library);
    expect(await run()).toBe(1);
    // Notes are not verdicts: the cache line counts none of them.
    expect(cache.stats).toMatchObject({ hits: 0, misses: 0, stored: 0, rejected: 0 });
  });

  it('asks each file once however many names lead to it, never keeps a failed probe, and without a cache always probes', async () => {
    const executable = join(dir, 'python3.12');
    await writeFile(executable, 'binary');
    await symlink(executable, join(dir, 'python3'));
    const cache = new VerdictCache(dir);
    const failing = countingProbe(executable, true);
    const probes = new ProbeCache(failing.probe, cache);
    expect(await Promise.all([probes.answer(join(dir, 'python3')), probes.answer(executable)])).toEqual([
      undefined,
      undefined,
    ]);
    // One ask, under whichever name resolved first: the two look-ups race on the thread pool.
    expect(failing.asked).toHaveLength(1);
    expect([join(dir, 'python3'), executable]).toContain(failing.asked[0]);
    const again = countingProbe(executable);
    expect(await new ProbeCache(again.probe, cache).answer(executable)).toEqual(PROBED);
    expect(again.asked).toEqual([executable]);
    const uncached = countingProbe(executable);
    await new ProbeCache(uncached.probe).answer(executable);
    await new ProbeCache(uncached.probe).answer(executable);
    expect(uncached.asked).toHaveLength(2);
    expect(await new ProbeCache(uncached.probe, cache).answer(join(dir, 'missing'))).toBeUndefined();
  });
});

const real = findInterpreters()[0];

describe.skipIf(real === undefined)('local discovery with the verdict cache', () => {
  const saved = { PATH: process.env.PATH, PYENV_ROOT: process.env.PYENV_ROOT };
  afterEach(() => {
    process.env.PATH = saved.PATH;
    if (saved.PYENV_ROOT === undefined) delete process.env.PYENV_ROOT;
    else process.env.PYENV_ROOT = saved.PYENV_ROOT;
  });

  it('runs no probe for an unchanged interpreter, and probes one upgraded in place again', async () => {
    // The only interpreter on PATH: a script that notes each run and hands over to a real CPython.
    const bin = join(dir, 'bin');
    await mkdir(bin);
    const runs = join(dir, 'runs');
    const python = join(bin, 'python3');
    await writeFile(python, `#!/bin/sh\necho run >> '${runs}'\nexec '${real!.executable}' "$@"\n`);
    await chmod(python, 0o755);
    process.env.PATH = bin;
    process.env.PYENV_ROOT = join(dir, 'no-pyenv');
    const ran = async () => (await readFile(runs, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    const cache = new VerdictCache(dir);
    const expected = [{ ...real!, executable: python }];

    expect(await discoverInterpreters(cache)).toEqual(expected);
    expect(await ran()).toBe(1);
    expect(await discoverInterpreters(cache)).toEqual(expected);
    expect(await ran()).toBe(1);
    await touch(python, 1_000_000);
    expect(await discoverInterpreters(cache)).toEqual(expected);
    expect(await ran()).toBe(2);
    await appendFile(python, '# upgraded\n');
    expect(await discoverInterpreters(cache)).toEqual(expected);
    expect(await ran()).toBe(3);
    expect(await discoverInterpreters(cache)).toEqual(expected);
    expect(await ran()).toBe(3);
    // Without the cache every discovery probes.
    await discoverInterpreters();
    expect(await ran()).toBe(4);
  });
});
