import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pair } from '../pairs/select.js';
import type { RuntimeName } from '../runtime-names.js';
import type { Scenario } from '../scenario/types.js';
import { runtimesNotRun } from './availability.js';

// `python` cannot run where no `python3` is on the PATH: an empty folder as the PATH makes it so, in a moment.
let snapshotsDir = '';
let emptyPath = '';
let savedPath: string | undefined;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'concord-availability-unit-'));
  snapshotsDir = join(dir, 'snapshots');
  emptyPath = join(dir, 'bin');
  await mkdir(snapshotsDir);
  await mkdir(emptyPath);
  savedPath = process.env.PATH;
  process.env.PATH = emptyPath;
});
afterAll(async () => {
  process.env.PATH = savedPath;
  await rm(join(snapshotsDir, '..'), { recursive: true, force: true });
});

const scenario = (runtimesListed: boolean): Scenario => ({
  name: 'notes',
  description: 'Notes.',
  file: '/p/scenarios/notes.yml',
  runtimes: ['typescript', 'python'],
  runtimesListed,
  runtimeConfig: {},
  composition: [],
  script: [],
  expect: {},
});
const pairsOf = (s: Scenario): Pair[] => s.runtimes.map((runtime) => ({ scenario: s, runtime }));

async function availability(pairs: Pair[], named?: RuntimeName[]) {
  const lines: string[] = [];
  const result = await runtimesNotRun({ pairs, skip: [], ci: true, snapshotsDir, named, out: (l) => lines.push(l) });
  return { ...result, lines };
}

describe('a runtime that cannot run here', () => {
  it('is left out without a word when nothing names it and nothing of it is committed', async () => {
    const { notRun, leftOut, lines } = await availability(pairsOf(scenario(false)));
    expect(leftOut).toEqual(['python']);
    expect(notRun.size).toBe(0);
    expect(lines).toEqual([]);
  });

  it('is skipped, and said, when the scenario lists it', async () => {
    const { notRun, leftOut, lines } = await availability(pairsOf(scenario(true)));
    expect(leftOut).toEqual([]);
    expect(notRun.get('python')?.status).toBe('skipped');
    expect(lines).toEqual([expect.stringMatching(/^python skipped: /)]);
  });

  it('is skipped, and said, when the run names it (--runtime or the config)', async () => {
    const { notRun, leftOut } = await availability(pairsOf(scenario(false)), ['typescript', 'python']);
    expect(leftOut).toEqual([]);
    expect(notRun.get('python')?.status).toBe('skipped');
  });

  it('fails a CI run when a snapshot of it is committed, named or not', async () => {
    await mkdir(join(snapshotsDir, 'notes', 'python'), { recursive: true });
    try {
      const { notRun, leftOut, lines } = await availability(pairsOf(scenario(false)));
      expect(leftOut).toEqual([]);
      expect(notRun.get('python')?.status).toBe('failed');
      expect(lines).toEqual([expect.stringMatching(/^error: python cannot run here, and 1 committed snapshot/)]);
    } finally {
      await rm(join(snapshotsDir, 'notes'), { recursive: true });
    }
  });
});
