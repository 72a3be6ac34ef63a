import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { Host } from '../../test/host-requirements.js';
import { writeStockProject } from '../project/stock-project.js';
import { listPending } from '../snapshot/review.js';

/** `chattr +i` makes a folder unwritable even for root (sessions and CI run as root, so chmod would not). */
const immutable = (dir: string, on: boolean) => spawnSync('chattr', [on ? '+i' : '-i', dir], { encoding: 'utf8' });

let work = '';
let root = '';
let snapshotsDir = '';
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'concord-write-failure-'));
  root = join(work, 'project');
  snapshotsDir = join(root, 'snapshots');
  // About writing snapshots, not plugin loading: the plugin is JavaScript, so no gate here loads tsx.
  await writeStockProject(root, 'mode-both', { javascript: true });
  await mkdir(snapshotsDir);
});
afterEach(async () => {
  immutable(snapshotsDir, false);
  await rm(work, { recursive: true, force: true });
});

const gate = (...args: string[]) =>
  spawnSync(
    process.execPath,
    [sourceAsset('bin/concord.mjs'), 'gate', '--root', root, '--runtime', 'typescript', '--update=all', ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, CI: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 280_000,
    },
  );

const kept = async () =>
  (await listPending({ snapshotsDir, pendingRoot: join(root, '.concord', 'pending') }))
    .map((e) => [e.path, e.action, e.status, e.stale])
    .sort();

const chattr = await Host.with('chattr');

describe('a gate whose snapshot write fails', () => {
  chattr.it(
    'ends in one line with the path and the fix (exit 1) and keeps the run’s proposals',
    { timeout: 300_000 },
    async () => {
      expect(immutable(snapshotsDir, true).status).toBe(0);
      const result = gate();
      expect(result.stderr).toContain(
        `concord gate: ${join(snapshotsDir, 'mode-both')} cannot be changed: operation not permitted (EPERM on mkdir)\n  hint: `,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.status).toBe(1);
      expect(await kept()).toEqual([
        ['mode-both/typescript/cordis.yml', 'write', 'new', false],
        ['mode-both/typescript/run_code.json', 'write', 'new', false],
        ['mode-both/typescript/tools-sdk.ts', 'write', 'new', false],
        ['mode-both/typescript/transcript.yaml', 'write', 'new', false],
      ]);
      expect(result.stdout).toContain(`the proposals of this run are kept in ${join('.concord', 'pending')}`);
      expect(await readdir(snapshotsDir)).toEqual([]);
    },
  );

  it('refuses a snapshot folder that is a link to outside (exit 2), naming it and touching nothing there', {
    timeout: 300_000,
  }, async () => {
    const outside = join(work, 'outside');
    await mkdir(join(outside, 'python'), { recursive: true });
    await writeFile(join(outside, 'python', 'precious.txt'), 'keep me\n');
    await symlink(outside, join(snapshotsDir, 'ghost'));
    const result = gate();
    expect(result.stderr).toContain(`concord gate: ${join(snapshotsDir, 'ghost')}: is a symbolic link`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.status).toBe(2);
    expect(await readFile(join(outside, 'python', 'precious.txt'), 'utf8')).toBe('keep me\n');
    // The link is refused while the committed folders are read, before any pair runs: nothing is written.
    expect(await readdir(snapshotsDir)).toEqual(['ghost']);
  });
});
