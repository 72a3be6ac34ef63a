import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { projectAt } from '../project/root.js';
import { reviewPending } from '../snapshot/review.js';
import { keepCache, seedCache } from '../test/warm-cache.js';
import { renderDiff } from '../text/diff.js';
import { type GateOptions, type GateResult, runGate } from './gate.js';

/**
 * One small scenario on the two fast runtimes, against snapshot and pending folders of its own. No test here is
 * about a cold start: the gates keep their verdict cache in the work folder, seeded from what earlier gates of
 * the run computed.
 */
let work = '';
let snapshotsDir = '';
let pendingRoot = '';
const lines: string[] = [];

const gate = (overrides: Partial<GateOptions> = {}) =>
  runGate({
    project: projectAt(packageRoot()),
    snapshotsDir,
    pendingRoot,
    selection: { scenarios: ['mode-both'], runtimes: ['typescript', 'python'] },
    update: 'none',
    ci: false,
    cache: true,
    cacheRoot: work,
    // About what each mode writes and proposes, not stability (unstable.test.ts is): each pair runs once.
    stabilityRerun: false,
    color: false,
    out: (line) => lines.push(line),
    ...overrides,
  });

/** Runtime and status of each pair; a failed pair also says why, so a red test names what broke. */
const outcomes = (result: GateResult) =>
  result.pairs.map((r) =>
    r.status === 'failed'
      ? [r.runtime, r.status, r.reason ?? '', ...r.findings.filter((f) => f.severity === 'error').map((f) => f.message)]
      : [r.runtime, r.status],
  );

async function treeHash(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (d: string): Promise<void> => {
    for (const entry of (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(d, entry.name);
      hash.update(path);
      if (entry.isDirectory()) await walk(path);
      else hash.update(await readFile(path));
    }
  };
  await walk(dir);
  return hash.digest('hex');
}

const pythonRunCode = () => join(snapshotsDir, 'mode-both', 'python', 'run_code.json');
async function editOneWord(): Promise<void> {
  const text = await readFile(pythonRunCode(), 'utf8');
  expect(text).toContain('Python program');
  await writeFile(pythonRunCode(), text.replace('Python program', 'Python script'));
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'concord-modes-'));
  snapshotsDir = join(work, 'snapshots');
  pendingRoot = join(work, 'pending');
  await seedCache(work);
  const first = await gate({ update: 'new' });
  expect(first.pairs.map((r) => r.status)).toEqual(['updated', 'updated']);
}, 300_000);
afterAll(async () => {
  await keepCache(work);
  await rm(work, { recursive: true, force: true });
});

describe('gate modes', () => {
  it('passes in compare mode right after --update=new', { timeout: 300_000 }, async () => {
    const result = await gate();
    expect(outcomes(result)).toEqual([
      ['typescript', 'pass'],
      ['python', 'pass'],
    ]);
    expect(result.ok).toBe(true);
  });

  it('fails on exactly the edited Python snapshot in CI, writes nothing under snapshots/, and review --accept-all settles it', {
    timeout: 300_000,
  }, async () => {
    await editOneWord();
    const before = await treeHash(snapshotsDir);
    lines.length = 0;
    const result = await gate({ ci: true, update: 'all' });
    expect(result.ok).toBe(false);
    expect(outcomes(result)).toEqual([
      ['typescript', 'pass'],
      ['python', 'mismatch'],
    ]);
    const changed = result.pairs.flatMap((r) => r.verdicts.filter((v) => v.status !== 'same'));
    expect(changed.map((v) => v.path)).toEqual(['mode-both/python/run_code.json']);
    const diff = renderDiff(changed[0]!.diff!, false);
    expect(diff).toMatch(/^-.*Python script/m);
    expect(diff).toMatch(/^\+.*Python program/m);
    expect(diff).toMatch(/^~ .*Python \[-script-\]\{\+program\+\}/m);
    expect(lines.join('\n')).toContain('+++ snapshots/mode-both/python/run_code.json');
    expect(await treeHash(snapshotsDir)).toBe(before);
    expect(result.pendingDir).toBeDefined();

    const summary = await reviewPending({
      snapshotsDir,
      pendingRoot,
      decide: async () => 'accept',
      color: false,
      out: () => undefined,
    });
    expect(summary.text).toContain('1 accepted');
    expect((await gate()).ok).toBe(true);
  });

  it('--update=all rewrites a changed snapshot locally', { timeout: 300_000 }, async () => {
    await editOneWord();
    const updated = await gate({ update: 'all' });
    expect(updated.pairs.map((r) => r.status)).toEqual(['pass', 'updated']);
    expect(await readFile(pythonRunCode(), 'utf8')).toContain('Python program');
    expect((await gate()).ok).toBe(true);
  });

  it('names a snapshot file edited into garbage', { timeout: 300_000 }, async () => {
    const transcript = join(snapshotsDir, 'mode-both', 'python', 'transcript.yaml');
    const original = await readFile(transcript);
    await writeFile(transcript, 'turns: [\n  {{{ \u0000');
    try {
      const result = await gate();
      expect(result.ok).toBe(false);
      const garbage = result.pairs.flatMap((r) => r.verdicts.filter((v) => v.status === 'garbage'));
      expect(garbage.map((v) => v.reason)).toEqual([
        expect.stringMatching(/^snapshots\/mode-both\/python\/transcript\.yaml contains NUL bytes/),
      ]);
    } finally {
      await writeFile(transcript, original);
    }
  });

  it('reports obsolete folders by name, judged only over the selection', { timeout: 300_000 }, async () => {
    // ghost is no scenario: its folders are obsolete wherever the selection reaches them. The TypeScript
    // worker runs every scenario in a moment, so the runtime that selects the whole scenario set is that one.
    for (const runtime of ['typescript', 'python']) {
      await mkdir(join(snapshotsDir, 'ghost', runtime), { recursive: true });
      await writeFile(join(snapshotsDir, 'ghost', runtime, 'transcript.yaml'), 'turns: []\n');
    }
    try {
      const all = await gate({ selection: { runtimes: ['typescript'] } });
      expect(all.pairs.length).toBeGreaterThan(1);
      expect(all.obsolete).toEqual(['ghost/typescript']);
      expect(all.ok).toBe(false);
      const modeBothOnly = await gate({ selection: { scenarios: ['mode-both'], runtimes: ['typescript'] } });
      expect(modeBothOnly.obsolete).toEqual([]);
      expect(modeBothOnly.ok).toBe(true);
    } finally {
      await rm(join(snapshotsDir, 'ghost'), { recursive: true, force: true });
    }
  });
});
