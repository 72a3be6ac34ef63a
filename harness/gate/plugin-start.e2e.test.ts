import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
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
  expect(result.stdout).toContain(
    `cordis.yml entry "catalog" (plugin ${join(root, 'plugins', 'catalog.mjs')}): failed to start: the catalog database is down`,
  );
  expect(result.stdout).toContain('gate: FAILED');
});
