import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { PendingChange } from '../pending.js';
import { listPending } from '../review.js';
import { snapshotFingerprint } from '../store.js';

/**
 * A project made afresh for each test of the file that calls this: `snapshots/demo/python/{a,b,c}.yaml`
 * committed, pending proposals to go in `.concord/pending/`. `demo` holds the folders of the test running.
 */
export function demoSnapshots() {
  const demo = { root: '', snapshotsDir: '', pendingRoot: '' };
  beforeEach(async () => {
    demo.root = await mkdtemp(join(tmpdir(), 'concord-review-'));
    demo.snapshotsDir = join(demo.root, 'snapshots');
    demo.pendingRoot = join(demo.root, '.concord', 'pending');
    await mkdir(join(demo.snapshotsDir, 'demo', 'python'), { recursive: true });
    for (const name of ['a.yaml', 'b.yaml', 'c.yaml'])
      await writeFile(join(demo.snapshotsDir, 'demo', 'python', name), `${name} committed\n`);
  });
  afterEach(() => rm(demo.root, { recursive: true, force: true }));
  return {
    demo,
    /** A proposal to rewrite `demo/python/<name>`, made against what is committed now. */
    proposal: async (name: string, text: string) => {
      const path = `demo/python/${name}`;
      return {
        path,
        action: 'write',
        status: 'changed',
        base: await snapshotFingerprint(demo.snapshotsDir, path),
        proposed: text,
      } satisfies PendingChange & { proposed: string };
    },
    committed: (name: string) => readFile(join(demo.snapshotsDir, 'demo', 'python', name), 'utf8'),
    /** What is pending, as `run path`. */
    pendingPaths: async () =>
      (await listPending({ snapshotsDir: demo.snapshotsDir, pendingRoot: demo.pendingRoot })).map(
        (e) => `${e.run} ${e.path}`,
      ),
  };
}
