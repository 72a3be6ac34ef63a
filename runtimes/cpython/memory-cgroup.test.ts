import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { makeCgroupFolder, memoryCgroupSupport, removeCgroupFolder, sweepAbandoned } from './memory-cgroup.js';

(await Host.with('root', 'memory cgroup')).it(
  'sweeps the runtime folders of hosts killed before their exit hook, with their run folders, and keeps live ones',
  {},
  () => {
    const root = memoryCgroupSupport();
    if (typeof root === 'string') throw new Error(root);
    // A host that is gone: a process that ran and exited, its pid free.
    const gone = spawnSync('true').pid!;
    const abandoned = join(root.parent, `concord-${gone}-0badc0de`);
    mkdirSync(abandoned);
    mkdirSync(join(abandoned, 'run-1'));
    const live = makeCgroupFolder(root);
    try {
      expect(sweepAbandoned(root)).toEqual([abandoned]);
      expect(existsSync(abandoned)).toBe(false);
      expect(existsSync(live)).toBe(true);
    } finally {
      removeCgroupFolder(live);
      removeCgroupFolder(abandoned);
    }
  },
);
