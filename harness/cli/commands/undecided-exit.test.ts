import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { concordIn } from '../../test/concord-cli.js';
import { projectWith } from '../../test/project-files.js';

// A backend's plugins and tools run in the gate's own process: one that ends it with exit code 0 halfway
// through must not read as a gate that passed.

const SCENARIO = `name: quitting
description: A tool that ends the process.
runtimes: [typescript]
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: quitter
    plugin: ../plugins/quitter.mjs
  - id: agent
    plugin: concord/agent
    config: { persona: Brief. }
script:
  - user: Quit.
  - assistant:
      run_code:
        description: Quit
        typescript: "await tools.quit({}); return 1;"
        python: "await tools.quit({})\\nreturn 1"
  - final: Done.
`;

const quitter = (code: number) => `export default {
  name: 'quitter',
  inject: ['tools'],
  apply(ctx) {
    ctx.tools.register({ name: 'quit', description: 'Ends the process.', parameters: { type: 'object', properties: {} }, execute: async () => process.exit(${code}) });
  },
};
`;

let root = '';
beforeEach(async () => {
  root = await projectWith('quit', { 'scenarios/quitting.yml': SCENARIO });
  await mkdir(join(root, 'plugins'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const concord = concordIn(() => root, 60_000);
const gate = () => concord({}, 'gate');

it('a tool calling process.exit(0) mid-gate: exit 1, said on stderr, no verdict printed and no snapshot written', async () => {
  await writeFile(join(root, 'plugins', 'quitter.mjs'), quitter(0));
  const result = gate();
  expect(result.status, result.stderr).toBe(1);
  expect(result.stderr).toContain('concord gate: the process was about to exit with 0 before the command finished');
  expect(result.stderr).toContain('Exiting with 1: the command reached no verdict.');
  expect(result.stdout).not.toContain('gate: ');
  // .concord/ (the verdict cache) may have been started; no snapshot was written.
  expect((await readdir(root)).filter((name) => name !== '.concord').sort()).toEqual(['plugins', 'scenarios']);
});

it('a tool calling process.exit(3) mid-gate: its code stays, and stderr says the command had not finished', async () => {
  await writeFile(join(root, 'plugins', 'quitter.mjs'), quitter(3));
  const result = gate();
  expect(result.status, result.stderr).toBe(3);
  expect(result.stderr).toContain('concord gate: the process ended with 3 before the command finished.');
});
