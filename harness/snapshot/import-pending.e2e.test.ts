import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { STOCK_PLUGIN_JS, writeStockProject } from '../project/stock-project.js';
import { keepCache, seedCache } from '../test/warm-cache.js';

let root = '';
const scratch: string[] = [];
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-from-'));
  scratch.push(root);
  // About review, not plugin loading: the plugin is JavaScript, so no gate here loads tsx.
  await writeStockProject(root, 'stock', { javascript: true });
  // Review is this file's subject, not a cold start: its gates start from the run's verdict cache.
  await seedCache(root);
});
afterAll(async () => {
  await keepCache(root);
  await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
});

const concord = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [sourceAsset('bin/concord.mjs'), ...args, '--root', root], {
    encoding: 'utf8',
    env: { ...process.env, CI: '', NO_COLOR: '1', ...env },
    timeout: 240_000,
  });

/** CI's run: a changed description, proposals in .concord/pending/, moved away as the downloaded artifact. */
async function ciArtifact(description: string): Promise<string> {
  await writeFile(
    join(root, 'scenarios', 'plugins', 'stock.mjs'),
    STOCK_PLUGIN_JS.replace('Counts the items in stock.', description),
  );
  expect(concord(['gate'], { CI: 'true' }).status).toBe(1);
  const artifact = await mkdtemp(join(tmpdir(), 'concord-artifact-'));
  scratch.push(artifact);
  await cp(join(root, '.concord', 'pending'), join(artifact, 'concord-pending'), { recursive: true });
  await rm(join(root, '.concord', 'pending'), { recursive: true, force: true });
  return join(artifact, 'concord-pending');
}

describe('review --from: the proposals CI made, applied here', () => {
  it('takes a downloaded artifact (folder or .tgz), applies it, and refuses one made against another snapshot', {
    timeout: 600_000,
  }, async () => {
    expect(concord(['gate', '--update=new']).status).toBe(0);
    const sdk = join(root, 'snapshots', 'stock', 'typescript', 'tools-sdk.ts');

    const folder = await ciArtifact('Counts every item on the shelves.');
    // The same proposals, kept aside: once the first copy is applied they were made against another snapshot.
    const stale = await mkdtemp(join(tmpdir(), 'concord-artifact-'));
    scratch.push(stale);
    await cp(folder, join(stale, 'concord-pending'), { recursive: true });
    const tgz = join(folder, '..', 'concord-pending.tgz');
    expect(spawnSync('tar', ['-czf', tgz, '-C', folder, '.']).status).toBe(0);
    const applied = concord(['review', '--from', tgz, '--accept-all']);
    expect(applied.stdout).toContain('took 1 pending run(s)');
    expect(applied.status).toBe(0);
    expect(await readFile(sdk, 'utf8')).toContain('Counts every item on the shelves.');
    expect(concord(['gate'], { CI: 'true' }).status).toBe(0);

    // A proposal made against a snapshot that changed since (here by the copy applied, then by hand) is refused,
    // named, and applies nothing.
    await writeFile(sdk, (await readFile(sdk, 'utf8')).replace('Counts every item', 'Counts each item'));
    const refused = concord(['review', '--from', join(stale, 'concord-pending'), '--accept-all']);
    expect(refused.status).toBe(1);
    expect(refused.stdout + refused.stderr).toContain('stock/typescript/tools-sdk.ts');
    expect(await readFile(sdk, 'utf8')).toContain('Counts each item');
    expect(await readFile(sdk, 'utf8')).not.toContain('Counts every item');
  });

  it('refuses a hostile artifact, writing nothing outside .concord/', { timeout: 120_000 }, async () => {
    const artifact = await mkdtemp(join(tmpdir(), 'concord-hostile-'));
    scratch.push(artifact);
    const run = join(artifact, '20260101T000000Z-abcdef');
    await mkdir(join(run, 'files'), { recursive: true });
    await writeFile(
      join(run, 'manifest.json'),
      JSON.stringify({
        runId: '20260101T000000Z-abcdef',
        changes: [{ path: '../../escape.txt', action: 'write', status: 'new', base: null }],
      }),
    );
    const before = await readdir(root);
    const result = concord(['review', '--from', artifact, '--accept-all']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('manifest.json');
    expect(await readdir(root)).toEqual(before);
    expect(spawnSync('ls', [join(root, '..', 'escape.txt')]).status).not.toBe(0);
  });
});
