import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { listPending } from '../snapshot/review.js';
import { runGate } from './gate.js';

/** `chattr +i` makes a folder unwritable even for root (sessions and CI run as root, so chmod would not). */
const immutable = (dir: string, on: boolean) => spawnSync('chattr', [on ? '+i' : '-i', dir], { encoding: 'utf8' });

let work = '';
afterEach(async () => {
  if (work) immutable(join(work, 'snapshots'), false);
  await rm(work, { recursive: true, force: true });
});

describe('a snapshot write that fails', () => {
  it('still keeps the run’s proposals in the pending folder', { timeout: 300_000 }, async (ctx) => {
    work = await mkdtemp(join(tmpdir(), 'concord-write-failure-'));
    const snapshotsDir = join(work, 'snapshots');
    const pendingRoot = join(work, 'pending');
    await mkdir(snapshotsDir);
    const locked = immutable(snapshotsDir, true);
    if (locked.status !== 0) ctx.skip(`chattr +i is not available here, so no folder can be made unwritable for root: ${locked.stderr || locked.error?.message}`);
    const lines: string[] = [];
    const gate = runGate({
      root: packageRoot(),
      snapshotsDir,
      pendingRoot,
      selection: { scenarios: ['mode-both'], runtimes: ['typescript'] },
      update: 'all',
      ci: false,
      color: false,
      out: (line) => lines.push(line),
    });
    await expect(gate).rejects.toMatchObject({ code: 'EPERM', path: join(snapshotsDir, 'mode-both') });
    const kept = await listPending({ snapshotsDir, pendingRoot });
    expect(kept.map((e) => [e.path, e.action, e.status, e.stale]).sort()).toEqual([
      ['mode-both/typescript/cordis.yml', 'write', 'new', false],
      ['mode-both/typescript/run_code.json', 'write', 'new', false],
      ['mode-both/typescript/tools-sdk.ts', 'write', 'new', false],
      ['mode-both/typescript/transcript.yaml', 'write', 'new', false],
    ]);
    expect(lines.join('\n')).toContain(`the proposals of this run are kept in ${join(pendingRoot, kept[0]!.run)}`);
    expect(await readdir(snapshotsDir)).toEqual([]);
  });
});
