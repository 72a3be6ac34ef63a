import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../runtimes/seam/package-root.js';
import { runGate } from './gate/gate.js';
import { projectAt } from './project/root.js';
import { keepCache, warmCacheRoot } from './test/warm-cache.js';
import { renderDiff } from './text/diff.js';

let pendingRoot = '';
let cacheRoot = '';
afterAll(async () => {
  await rm(pendingRoot, { recursive: true, force: true });
  if (cacheRoot) {
    await keepCache(cacheRoot);
    await rm(cacheRoot, { recursive: true, force: true });
  }
});

describe('the gate over the committed scenarios', () => {
  it('agrees with every snapshot on every runtime that can run here (compare mode)', { timeout: 900_000 }, async () => {
    pendingRoot = await mkdtemp(join(tmpdir(), 'concord-gate-pending-'));
    // Not about a cold start: the verdicts other gates of the run computed are reused, and this run's are kept for
    // them.
    cacheRoot = await warmCacheRoot();
    const lines: string[] = [];
    // CI mode: whatever happens, nothing under snapshots/ is written.
    const result = await runGate({
      project: projectAt(packageRoot()),
      pendingRoot,
      selection: {},
      update: 'none',
      ci: true,
      cache: true,
      cacheRoot,
      color: false,
      out: (line) => lines.push(line),
    });
    const bad = result.pairs.filter((r) => r.status !== 'pass' && r.status !== 'skipped');
    expect(
      bad.map(
        (r) =>
          `${r.scenario} × ${r.runtime}: ${r.status}\n${r.reason ?? ''}\n${r.verdicts.map((v) => (v.diff ? renderDiff(v.diff, false) : (v.reason ?? ''))).join('\n')}`,
      ),
    ).toEqual([]);
    expect(result.obsolete).toEqual([]);
    expect(result.ok).toBe(true);
    for (const runtime of ['typescript', 'python', 'pyodide']) {
      expect(
        result.pairs.filter((r) => r.runtime === runtime && r.status === 'pass').length,
        runtime,
      ).toBeGreaterThanOrEqual(8);
    }
    // The container runs when Docker and the image answer; otherwise the gate says why, once.
    const skipped = result.pairs.filter((r) => r.status === 'skipped');
    for (const r of skipped) expect(r.runtime).toBe('python-container');
    if (skipped.length > 0) expect(lines.filter((l) => l.startsWith('python-container skipped: '))).toHaveLength(1);
  });
});
