import { spawnSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { Host } from '../../test/host-requirements.js';
import { concordIn } from '../test/concord-cli.js';
import { projectWith } from '../test/project-files.js';

// What a gate says about a backend plugin whose `async apply` fails: the pair, the entry, the reason, and the
// time the boot took before it failed.

const SCENARIO = `name: catalog
description: A plugin that loads its catalog before it registers tools.
runtimes: [typescript]
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: catalog
    plugin: ../plugins/catalog.mjs
  - id: agent
    plugin: concord/agent
    config: { persona: Brief. }
script:
  - user: Hello?
  - final: Hi.
`;

const PLUGIN = `export default {
  name: 'catalog',
  inject: ['tools'],
  async apply() {
    await new Promise((resolve) => setTimeout(resolve, 400));
    throw new Error('the catalog database is down');
  },
};
`;

let root = '';
beforeEach(async () => {
  root = await projectWith('plugin-start', { 'scenarios/catalog.yml': SCENARIO, 'plugins/catalog.mjs': PLUGIN });
});
afterEach(() => rm(root, { recursive: true, force: true }));

it('an async apply that rejects fails its pair with the entry, the plugin and the reason, and the time its boot took', () => {
  const result = concordIn(() => root, 60_000)({ CI: 'true' }, 'gate');
  expect(result.status, result.stderr).toBe(1);
  const line = /^✗ failed\s+catalog × typescript\s+assembly (\d+) ms/m.exec(result.stdout);
  expect(line, result.stdout).not.toBeNull();
  // The apply waited 400 ms before it rejected: the assembly took at least that long, not the 0 ms of a pair that never
  // ran.
  expect(Number(line![1])).toBeGreaterThanOrEqual(400);
  // The plugin is named from the project root: shorter, and the same on every machine.
  expect(result.stdout).toContain(
    'cordis.yml entry "catalog" (plugin plugins/catalog.mjs): failed to start: the catalog database is down',
  );
  expect(result.stdout).not.toContain(root);
  expect(result.stdout).toContain('gate: FAILED');
});

(await Host.with('script')).it(
  'on a terminal, every line keeps within 100 columns; the reason is wrapped, not cut',
  {
    timeout: 60_000,
  },
  async () => {
    // A reason of about 250 columns: a pipe keeps it on one line, a terminal wraps it.
    const long = `the catalog database is down (${'tried replica-'.repeat(12)}end)`;
    await writeFile(join(root, 'plugins', 'catalog.mjs'), PLUGIN.replace('the catalog database is down', long));
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(sourceAsset('bin/concord.mjs'))} gate`;
    const run = spawnSync('script', ['-qec', command, '/dev/null'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, CI: '', NO_COLOR: '1' },
    });
    // What the terminal shows: the live line's redraws and carriage returns taken out.
    const shown = run.stdout
      .replace(/\r\x1b\[2K[^\r\n]*(?=\r\x1b\[2K)/g, '')
      .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
      .split(/\r?\n/)
      .map((line) => line.replace(/^.*\r/, ''));
    expect(run.status, run.stdout).toBe(1);
    for (const line of shown) expect(line.length, line).toBeLessThanOrEqual(100);
    const joined = shown.map((line) => line.trim()).join(' ');
    expect(joined).toContain(long);
    expect(joined).toContain('(plugin plugins/catalog.mjs)');
  },
);
