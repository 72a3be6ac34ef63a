import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { memoryCgroupSupport, removeCgroupFolder } from '../../runtimes/cpython/memory-cgroup.js';
import { Host } from '../../test/host-requirements.js';
import { installedApart } from '../../test/packed.js';
import { writeStockProject } from '../project/stock-project.js';
import { concordIn } from '../test/concord-cli.js';

// The gate as a project installs it (the packed tarball, beside the project), on a machine where an earlier gate
// was killed with -9 while it ran Python: that gate's memory cgroup, with a run's folder in it, is still there.
let root = '';
let install = { bin: '', dir: '' };
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-cgroup-sweep-'));
  await writeStockProject(root, 'stock', { javascript: true, runtimes: '[python]' });
  install = await installedApart('cgroup-sweep');
}, 120_000);
afterAll(() => Promise.all([root, install.dir].map((dir) => rm(dir, { recursive: true, force: true }))));

(await Host.with('root', 'memory cgroup')).it(
  'removes the memory cgroup a killed gate left, when its first Python runtime starts',
  { timeout: 150_000 },
  () => {
    const cgroups = memoryCgroupSupport();
    if (typeof cgroups === 'string') throw new Error(cgroups);
    // The pid of a process that has exited: the killed gate's.
    const gone = spawnSync('true').pid!;
    const abandoned = join(cgroups.parent, `concord-${gone}-0badc0de`);
    mkdirSync(join(abandoned, 'run-1'), { recursive: true });
    try {
      const run = concordIn(
        () => root,
        120_000,
        () => install.bin,
      )({}, 'gate', '--update=new');
      expect(run.status, run.stdout + run.stderr).toBe(0);
      expect(existsSync(abandoned)).toBe(false);
    } finally {
      removeCgroupFolder(abandoned);
    }
  },
);
