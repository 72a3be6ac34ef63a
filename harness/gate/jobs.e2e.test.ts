import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { inOrder } from '../pairs/concurrent.js';
import { projectAt } from '../project/root.js';
import { keepCache, seedCache } from '../test/warm-cache.js';
import { runGate } from './gate.js';

const scratch: string[] = [];
afterAll(() => Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true }))));

async function fresh(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/** Every file below `dir`, by relative path, with its bytes. */
async function tree(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files.set(
        relative(dir, join(entry.parentPath, entry.name)),
        await readFile(join(entry.parentPath, entry.name), 'latin1'),
      );
  }
  return files;
}

describe('pairs in parallel', () => {
  it('reports in input order whatever order the work finishes in, never above the limit', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    const delays = [30, 5, 20, 1, 10];
    const results = await inOrder(
      delays,
      2,
      async (delay, i) => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, delay));
        running--;
        return i * 10;
      },
      (_result, i) => seen.push(i),
    );
    expect(results).toEqual([0, 10, 20, 30, 40]);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it('writes the same snapshot bytes and prints the same lines with --jobs 3 as with --jobs 1', {
    timeout: 600_000,
  }, async () => {
    // Not about a cold start: each run starts from its own copy of the verdicts earlier gates of the test run
    // computed, both copies taken before either run, so the two start alike.
    const cacheRoots = [await fresh('concord-jobs-cache-'), await fresh('concord-jobs-cache-')];
    for (const root of cacheRoots) await seedCache(root);
    const run = async (jobs: number, cacheRoot: string) => {
      const snapshotsDir = await fresh(`concord-jobs-${jobs}-`);
      const lines: string[] = [];
      const result = await runGate({
        project: projectAt(packageRoot()),
        snapshotsDir,
        pendingRoot: await fresh('concord-jobs-pending-'),
        reportRoot: await fresh('concord-jobs-report-'),
        selection: {
          scenarios: ['nested-reads', 'parallel-calls', 'timeout', 'tool-error-caught'],
          runtimes: ['typescript', 'python'],
        },
        update: 'all',
        jobs,
        ci: false,
        cache: true,
        cacheRoot,
        // Not about stability (unstable.test.ts is): each pair runs once, in both runs alike.
        stabilityRerun: false,
        color: false,
        // Times differ from run to run, and so does whether a pair waited for an interpreter at all (its boot).
        out: (line) =>
          lines.push(
            line
              .replace(/\d+ ms/g, '<ms>')
              .replace(/ · boot <ms>/g, '')
              .replace(/\/tmp\/concord-jobs-[^/\s]+/g, '<dir>'),
          ),
      });
      return { result, lines, files: await tree(snapshotsDir) };
    };
    const serial = await run(1, cacheRoots[0]!);
    const parallel = await run(3, cacheRoots[1]!);
    await keepCache(cacheRoots[0]!);
    expect(serial.result.pairs.map((r) => `${r.scenario}/${r.runtime}: ${r.status}`)).toEqual(
      parallel.result.pairs.map((r) => `${r.scenario}/${r.runtime}: ${r.status}`),
    );
    expect(serial.files.size).toBe(4 * 2 * 4);
    expect([...parallel.files.keys()].sort()).toEqual([...serial.files.keys()].sort());
    for (const [file, bytes] of serial.files) expect(parallel.files.get(file), file).toBe(bytes);
    // The stub-validity matrix the reports print is in pair order too, not in the order the pairs finished.
    const rows = (r: typeof serial) => r.result.matrix.map((c) => `${c.scenario}/${c.runtime} ${c.interpreter}`);
    expect(rows(serial).length).toBeGreaterThan(4);
    expect(rows(parallel)).toEqual(rows(serial));
    // Every line but the times, the report's place and the cache's count (pairs asking for one verdict at once may each
    // compute it).
    const printed = (r: typeof serial) =>
      r.lines.filter((l) => !l.startsWith('time:') && !l.startsWith('report:') && !l.startsWith('verdict cache:'));
    expect(printed(parallel)).toEqual(printed(serial));
  });
});
