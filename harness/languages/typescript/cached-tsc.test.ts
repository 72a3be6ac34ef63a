import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Session } from '../../session.js';
import { checkWithTsc } from './cached-tsc.js';

let root = '';
afterAll(() => rm(root, { recursive: true, force: true }));

const SDK = 'declare const tools: { lookup(args: { word: string }): Promise<string> };\n';
const program = (code: string, call = 1) => ({ call, line: 10 + call, code });

describe('TypeScript verdicts in the cache', () => {
  it('reuses the diagnostics of the same SDK and programs, with each tied to its program again, and misses for a changed program', async () => {
    root = await mkdtemp(join(tmpdir(), 'concord-tsc-cache-'));
    const programs = [
      program('return await tools.lookup({ word: "a" });'),
      program('return await tools.lookup({ word: 1 });', 2),
    ];
    await using first = new Session({ cacheRoot: root });
    const diagnostics = await checkWithTsc(first, SDK, programs);
    expect(diagnostics).toEqual([expect.objectContaining({ program: programs[1], severity: 'error', line: 1 })]);
    expect(first.cache!.stats).toMatchObject({ hits: 0, stored: 1 });

    await using second = new Session({ cacheRoot: root });
    const again = await checkWithTsc(second, SDK, programs);
    expect(again).toEqual(diagnostics);
    expect(again[0]!.program).toBe(programs[1]);
    expect(second.cache!.stats).toMatchObject({ hits: 1, misses: 0 });

    expect(await checkWithTsc(second, SDK, [programs[0]!])).toEqual([]);
    expect(second.cache!.stats).toMatchObject({ hits: 1, misses: 1, stored: 1 });

    // A forged entry (a pass for the failing programs, or one naming a program that is not there) is not taken.
    const top = join(root, '.concord', 'cache', 'tsc');
    for (const forged of ['{"format":1}', JSON.stringify([{ program: 5, severity: 'error', message: 'x' }])]) {
      for (const sub of await readdir(top))
        for (const file of await readdir(join(top, sub))) await writeFile(join(top, sub, file), forged);
      await using third = new Session({ cacheRoot: root });
      expect(await checkWithTsc(third, SDK, programs)).toEqual(diagnostics);
      expect(third.cache!.stats.hits).toBe(0);
    }
  });

  it('checks without a cache, storing nothing', async () => {
    await using session = new Session();
    expect(await checkWithTsc(session, SDK, [program('const n: number = "x"; return n;')])).toEqual([
      expect.objectContaining({ severity: 'error', line: 1 }),
    ]);
  });
});
