import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { writePending } from './pending.js';
import { demoSnapshots } from './test/demo-snapshots.js';

const { demo, proposal, committed, pendingPaths } = demoSnapshots();
describe('concord review on the command line', () => {
  const cli = (env: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, [sourceAsset('bin/concord.mjs'), 'review', '--root', demo.root, ...args], {
      encoding: 'utf8',
      env: { ...process.env, CI: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });

  it('lists pending proposals, as text and as JSON, even with CI set', async () => {
    await writePending(demo.pendingRoot, 'r1', [await proposal('a.yaml', 'a new\n')]);
    const text = cli({ CI: 'true' }, '--list');
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^r1 {2}write {3}changed {3}snapshots\/demo\/python\/a\.yaml\n$/);
    const json = cli({}, '--list', '--json');
    // The same path in both listings: the one a reviewer opens, from the project root.
    expect(JSON.parse(json.stdout)).toEqual([
      { run: 'r1', path: 'snapshots/demo/python/a.yaml', action: 'write', status: 'changed', stale: false },
    ]);
  });

  it('writes nothing and exits 2 with CI set, saying why', async () => {
    await writePending(demo.pendingRoot, 'r1', [await proposal('a.yaml', 'a new\n')]);
    const result = cli({ CI: 'true' }, '--accept-all');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('CI is set, and with CI set nothing under snapshots/ is written');
    expect(await committed('a.yaml')).toBe('a.yaml committed\n');
    expect(await pendingPaths()).toEqual(['r1 demo/python/a.yaml']);
  });

  it('exits 1 when a stale proposal was refused, and 2 naming a hostile manifest', async () => {
    await writePending(demo.pendingRoot, 'r1', [await proposal('a.yaml', 'a new\n')]);
    await writeFile(join(demo.snapshotsDir, 'demo', 'python', 'a.yaml'), 'newer\n');
    const stale = cli({}, '--accept-all');
    expect(stale.status).toBe(1);
    expect(stale.stdout).toContain('stale: snapshots/demo/python/a.yaml');
    await writeFile(
      join(demo.pendingRoot, 'r1', 'manifest.json'),
      JSON.stringify({ changes: [{ path: '../../etc', action: 'delete', status: 'obsolete', base: null }] }),
    );
    const hostile = cli({}, '--accept-all');
    expect(hostile.status).toBe(2);
    expect(hostile.stderr).toContain(
      `concord review: ${join(demo.pendingRoot, 'r1', 'manifest.json')}: $.changes[0].path: "../../etc" has an empty, "." or ".." segment`,
    );
    expect(hostile.stderr).not.toMatch(/\n\s+at /);
  });
});
