import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PendingChange, pendingRunIds, readPending, writePending } from './pending.js';
import { type Decision, listPending, reviewPending } from './review.js';
import { snapshotFingerprint } from './store.js';
import { demoSnapshots } from './test/demo-snapshots.js';

const { demo, proposal, committed, pendingPaths } = demoSnapshots();
const review = (decide: (change: PendingChange) => Promise<Decision>, runId?: string) =>
  reviewPending({
    snapshotsDir: demo.snapshotsDir,
    pendingRoot: demo.pendingRoot,
    decide,
    color: false,
    out: () => undefined,
    ...(runId ? { runId } : {}),
  });

describe('review', () => {
  it('keeps one proposal per snapshot file: the newest run wins, and a run that compared a folder drops its old ones', async () => {
    await writePending(demo.pendingRoot, 'r1', [await proposal('a.yaml', 'a1\n'), await proposal('b.yaml', 'b1\n')]);
    await writePending(demo.pendingRoot, 'r2', [await proposal('a.yaml', 'a2\n')]);
    expect(await pendingPaths()).toEqual(['r1 demo/python/b.yaml', 'r2 demo/python/a.yaml']);
    expect(await readdir(join(demo.pendingRoot, 'r1', 'files', 'demo', 'python'))).toEqual(['b.yaml']);
    // A later run that found demo/python agreeing proposes nothing, and the old proposals go.
    await writePending(demo.pendingRoot, 'r3', [], (path) => path.startsWith('demo/python/'));
    expect(await pendingRunIds(demo.pendingRoot)).toEqual([]);
  });

  it('refuses a stale proposal, naming it, and leaves it pending and the newer snapshot untouched', async () => {
    await writePending(demo.pendingRoot, 'r1', [
      await proposal('a.yaml', 'old proposal\n'),
      await proposal('b.yaml', 'b new\n'),
    ]);
    await writeFile(join(demo.snapshotsDir, 'demo', 'python', 'a.yaml'), 'written after the proposal\n');
    const lines: string[] = [];
    const summary = await reviewPending({
      snapshotsDir: demo.snapshotsDir,
      pendingRoot: demo.pendingRoot,
      decide: async () => 'accept',
      color: false,
      out: (l) => lines.push(l),
    });
    expect(summary.stale).toEqual(['demo/python/a.yaml']);
    expect(lines.join('\n')).toContain(
      'stale: snapshots/demo/python/a.yaml changed since run r1 proposed this; not applied',
    );
    expect(await committed('a.yaml')).toBe('written after the proposal\n');
    expect(await committed('b.yaml')).toBe('b new\n');
    expect(await listPending({ snapshotsDir: demo.snapshotsDir, pendingRoot: demo.pendingRoot })).toEqual([
      { run: 'r1', path: 'demo/python/a.yaml', action: 'write', status: 'changed', stale: true },
    ]);
  });

  it('compares and swaps: a snapshot rewritten while its change is on screen is not replaced by accepting it', async () => {
    await writePending(demo.pendingRoot, 'r1', [
      await proposal('a.yaml', 'old proposal\n'),
      await proposal('b.yaml', 'b new\n'),
    ]);
    const lines: string[] = [];
    const summary = await reviewPending({
      snapshotsDir: demo.snapshotsDir,
      pendingRoot: demo.pendingRoot,
      decide: async (change) => {
        // A gate -u rewrites a.yaml while the reviewer reads its proposal.
        if (change.path === 'demo/python/a.yaml')
          await writeFile(join(demo.snapshotsDir, 'demo', 'python', 'a.yaml'), 'rewritten while read\n');
        return 'accept';
      },
      color: false,
      out: (l) => lines.push(l),
    });
    expect(summary.stale).toEqual(['demo/python/a.yaml']);
    expect(summary.accepted).toBe(1);
    expect(lines).toContain(
      'stale: snapshots/demo/python/a.yaml changed since run r1 proposed this; not applied; run the gate again, it replaces or drops this proposal',
    );
    expect(await committed('a.yaml')).toBe('rewritten while read\n');
    expect(await committed('b.yaml')).toBe('b new\n');
    expect(await listPending({ snapshotsDir: demo.snapshotsDir, pendingRoot: demo.pendingRoot })).toEqual([
      { run: 'r1', path: 'demo/python/a.yaml', action: 'write', status: 'changed', stale: true },
    ]);
  });

  it('treats a manifest without base hashes as stale', async () => {
    await writePending(demo.pendingRoot, 'r1', [await proposal('a.yaml', 'x\n')]);
    const manifest = join(demo.pendingRoot, 'r1', 'manifest.json');
    const data = JSON.parse(await readFile(manifest, 'utf8')) as { changes: Array<Record<string, unknown>> };
    delete data.changes[0]!.base;
    await writeFile(manifest, JSON.stringify(data));
    expect((await review(async () => 'accept')).stale).toEqual(['demo/python/a.yaml']);
    expect(await committed('a.yaml')).toBe('a.yaml committed\n');
  });

  it('lets decided proposals leave one by one: an interruption keeps every undecided one', async () => {
    await writePending(demo.pendingRoot, 'r1', [
      await proposal('a.yaml', 'a new\n'),
      await proposal('b.yaml', 'b new\n'),
      await proposal('c.yaml', 'c new\n'),
    ]);
    let asked = 0;
    const interrupted = review(async () => {
      asked++;
      if (asked === 1) return 'accept';
      if (asked === 2) return 'skip';
      throw new Error('Ctrl-C');
    });
    await expect(interrupted).rejects.toThrow('Ctrl-C');
    expect(await committed('a.yaml')).toBe('a new\n');
    expect(await committed('c.yaml')).toBe('c.yaml committed\n');
    expect(await pendingPaths()).toEqual(['r1 demo/python/b.yaml', 'r1 demo/python/c.yaml']);
    expect((await readPending(demo.pendingRoot, 'r1')).changes.map((c) => c.path)).toEqual([
      'demo/python/b.yaml',
      'demo/python/c.yaml',
    ]);
    // The rest can still be reviewed.
    expect((await review(async () => 'reject')).text).toBe('review: 0 accepted, 2 rejected, 0 skipped');
    expect(await pendingRunIds(demo.pendingRoot)).toEqual([]);
    expect(await committed('b.yaml')).toBe('b.yaml committed\n');
  });

  it('stops at a missing proposed file, naming it, and keeps it and the rest pending', async () => {
    await writePending(demo.pendingRoot, 'r1', [
      await proposal('a.yaml', 'a new\n'),
      await proposal('b.yaml', 'b new\n'),
      await proposal('c.yaml', 'c new\n'),
    ]);
    await rm(join(demo.pendingRoot, 'r1', 'files', 'demo', 'python', 'b.yaml'));
    await expect(review(async () => 'accept')).rejects.toThrow(
      `${join(demo.pendingRoot, 'r1', 'files', 'demo', 'python', 'b.yaml')}: the proposed file is missing`,
    );
    expect(await committed('a.yaml')).toBe('a new\n');
    expect(await pendingPaths()).toEqual(['r1 demo/python/b.yaml', 'r1 demo/python/c.yaml']);
  });

  it('asks once for a group of identical changes across scenarios and runtimes, and applies the decision to every file of it', async () => {
    const sdk = (scenario: string, runtime: string) => `${scenario}/${runtime}/tools-sdk.py`;
    const files = [sdk('demo', 'python'), sdk('demo', 'pyodide'), sdk('other', 'python'), sdk('other', 'pyodide')];
    for (const path of files) {
      await mkdir(join(demo.snapshotsDir, path, '..'), { recursive: true });
      await writeFile(join(demo.snapshotsDir, path), `# ${path}\nclass Tools:\n    """Reads one order."""\n`);
    }
    const reworded = async (path: string) => ({
      path,
      action: 'write' as const,
      status: 'changed' as const,
      base: await snapshotFingerprint(demo.snapshotsDir, path),
      proposed: `# ${path}\nclass Tools:\n    """Reads one order by its id."""\n`,
    });
    // The same rewording in four files (split over two runs), and one change of its own.
    await writePending(demo.pendingRoot, 'r1', [
      await reworded(files[0]!),
      await reworded(files[1]!),
      await proposal('a.yaml', 'a new\n'),
    ]);
    await writePending(demo.pendingRoot, 'r2', [await reworded(files[2]!), await reworded(files[3]!)]);
    const asked: Array<{ diff: string; files: string[] }> = [];
    const summary = await reviewPending({
      snapshotsDir: demo.snapshotsDir,
      pendingRoot: demo.pendingRoot,
      color: false,
      out: () => undefined,
      decide: async (_change, diff, group) => {
        asked.push({ diff, files: group.items.map((i) => i.path) });
        return group.items.length > 1 ? 'accept' : 'skip';
      },
    });
    expect(asked.map((a) => a.files)).toEqual([files, ['demo/python/a.yaml']]);
    expect(asked[0]!.diff).toContain(
      'the same change in 4 files: snapshots/{demo,other}/{python,pyodide}/tools-sdk.py',
    );
    // One diff for the four files.
    expect(asked[0]!.diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'))).toEqual([
      '+    """Reads one order by its id."""',
    ]);
    expect(summary.text).toBe('review: 4 accepted, 0 rejected, 1 skipped');
    for (const path of files) expect(await readFile(join(demo.snapshotsDir, path), 'utf8')).toContain('by its id');
    expect(await pendingPaths()).toEqual(['r1 demo/python/a.yaml']);
  });

  it('reviews every pending run by default, and one run with --run', async () => {
    await writePending(demo.pendingRoot, 'r1', [await proposal('a.yaml', 'a new\n')]);
    await writePending(demo.pendingRoot, 'r2', [await proposal('b.yaml', 'b new\n')]);
    expect((await review(async () => 'accept', 'r2')).accepted).toBe(1);
    expect(await pendingPaths()).toEqual(['r1 demo/python/a.yaml']);
    await expect(review(async () => 'accept', 'r9')).rejects.toThrow('no pending run "r9"');
    expect((await review(async () => 'accept')).accepted).toBe(1);
    expect(await committed('a.yaml')).toBe('a new\n');
  });
});
