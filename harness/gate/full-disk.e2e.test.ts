import { spawnSync } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { installedApart } from '../../test/packed.js';
import { concordIn } from '../test/concord-cli.js';
import { projectWith } from '../test/project-files.js';

// The gate as a project installs it (the packed tarball, beside the project) writing snapshots onto a full disk: a
// 64 KB tmpfs mounted as the project's snapshots/ folder, and a transcript of about 200 KB to write there.
const SCENARIO = `name: export
description: A tool answering a long export.
runtimes: [typescript]
composition:
  - { id: tools, plugin: concord/tools, config: { mode: code } }
  - { id: export, plugin: ../plugins/export.mjs }
  - { id: agent, plugin: concord/agent, config: { persona: Brief. } }
script:
  - user: Export?
  - assistant:
      run_code:
        description: export
        typescript: "return String(await tools.export_all({})).length;"
        python: "return len(await tools.export_all({}))"
  - final: Done.
`;
const PLUGIN = `export default { name: 'export', inject: ['tools'], apply(ctx) {
  ctx.tools.register({ name: 'export_all', description: 'The export.', parameters: { type: 'object', properties: {} },
    execute: async () => Array.from({ length: 4000 }, (_, i) => 'row ' + i + ' of the export') });
} };
`;

let root = '';
let install = { bin: '', dir: '' };
beforeAll(async () => {
  root = await projectWith('full-disk', {
    'concord.config.yml': 'runtimes: [typescript]\n',
    'scenarios/export.yml': SCENARIO,
    'plugins/export.mjs': PLUGIN,
  });
  install = await installedApart('full-disk');
}, 120_000);
afterAll(() => Promise.all([root, install.dir].map((dir) => rm(dir, { recursive: true, force: true }))));

/** Every path below `dir`, relative to it. */
const below = async (dir: string) => (await readdir(dir, { recursive: true })).map(String).sort();

(await Host.with('tmpfs')).it(
  'gate -u on a full disk ends in one line naming the file and the fix, leaving no temp file and no half snapshot',
  { timeout: 150_000 },
  async () => {
    const snapshots = join(root, 'snapshots');
    await mkdir(snapshots);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', snapshots]).status).toBe(0);
    try {
      const run = concordIn(
        () => root,
        120_000,
        () => install.bin,
      )({}, 'gate', '--update=new');
      const output = run.stdout + run.stderr;
      expect(run.status, output).toBe(1);
      expect(run.stderr).toMatch(
        /^concord gate: \S*snapshots\/export\/typescript\/transcript\.yaml cannot be written: no space left on the device \(ENOSPC on write\)\n {2}hint: free some disk space and run again\n$/,
      );
      expect(run.stderr).not.toMatch(/\n\s+at /);
      // Nothing half-written: no temp file anywhere in the project, and no transcript cut short in snapshots/.
      const files = await below(root);
      expect(files.filter((path) => path.includes('.concord-tmp-'))).toEqual([]);
      expect((await below(snapshots)).filter((path) => path.endsWith('transcript.yaml'))).toEqual([]);
    } finally {
      spawnSync('umount', [snapshots]);
    }
  },
);
