import { spawnSync } from 'node:child_process';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { pendingRunIds, writePending } from './pending.js';
import { demoSnapshots } from './test/demo-snapshots.js';

const { demo, proposal, pendingPaths } = demoSnapshots();

describe('pending runs', () => {
  it('are the folders holding a manifest: one still writing, or cut off before it, proposes nothing yet', async () => {
    await writePending(demo.pendingRoot, 'r1', [await proposal('a.yaml', 'a1\n')]);
    await mkdir(join(demo.pendingRoot, 'r2', 'files', 'demo', 'python'), { recursive: true });
    expect(await pendingRunIds(demo.pendingRoot)).toEqual(['r1']);
    expect(await pendingPaths()).toEqual(['r1 demo/python/a.yaml']);
    // A run with a link in it stays a run: reading it names the link, and a gate's writePending leaves it.
    await mkdir(join(demo.pendingRoot, 'r3'));
    await symlink('/etc/passwd', join(demo.pendingRoot, 'r3', 'manifest.json'));
    expect(await pendingRunIds(demo.pendingRoot)).toEqual(['r1', 'r3']);
    await expect(pendingPaths()).rejects.toThrow('is a symbolic link');
    // (r4 proposes a.yaml anew, so r1's proposal of it is superseded and r1 goes.)
    await writePending(demo.pendingRoot, 'r4', [await proposal('a.yaml', 'a4\n')]);
    expect(await pendingRunIds(demo.pendingRoot)).toEqual(['r3', 'r4']);
  });
});

(await Host.with('tmpfs')).it(
  'on a full disk are whole or absent: the run that cannot be written leaves nothing, earlier runs stay reviewable',
  {},
  async () => {
    await mkdir(demo.pendingRoot, { recursive: true });
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', demo.pendingRoot]).status).toBe(0);
    try {
      await writePending(demo.pendingRoot, 'r1', [await proposal('a.yaml', 'a1\n')]);
      const big = [await proposal('b.yaml', 'b\n'), await proposal('c.yaml', 'x'.repeat(256 * 1024))];
      await expect(writePending(demo.pendingRoot, 'r2', big)).rejects.toMatchObject({ code: 'ENOSPC' });
      expect(await readdir(demo.pendingRoot)).toEqual(['r1']);
      expect(await pendingPaths()).toEqual(['r1 demo/python/a.yaml']);
    } finally {
      spawnSync('umount', [demo.pendingRoot]);
    }
  },
);
