import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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

const quitter = (quit: string) => `export default {
  name: 'quitter',
  inject: ['tools'],
  apply(ctx) {
    ctx.tools.register({ name: 'quit', description: 'Ends the process.', parameters: { type: 'object', properties: {} }, execute: async () => ${quit} });
  },
};
`;

let root = '';
/** The gate's TMPDIR: however it ended, the clean-up that listens to the exit event ran and left it empty. */
let temp = '';
beforeEach(async () => {
  root = await projectWith('quit', { 'scenarios/quitting.yml': SCENARIO });
  await mkdir(join(root, 'plugins'));
  temp = await mkdtemp(join(tmpdir(), 'concord-quit-tmp-'));
});
afterEach(async () => {
  const left = await readdir(temp);
  await rm(root, { recursive: true, force: true });
  await rm(temp, { recursive: true, force: true });
  expect(left).toEqual([]);
});

const concord = concordIn(() => root, 60_000);
const gate = () => concord({ TMPDIR: temp }, 'gate');

// process.reallyExit is what process.exit calls after the exit event; called straight, there is no event.
it.each(['process.exit(0)', 'process.reallyExit(0)'])(
  'a tool calling %s mid-gate: exit 1, said on stderr, no verdict printed and no snapshot written',
  async (quit) => {
    await writeFile(join(root, 'plugins', 'quitter.mjs'), quitter(quit));
    const result = gate();
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toContain('concord gate: the process was about to exit with 0 before the command finished');
    expect(result.stderr).toContain('Exiting with 1: the command reached no verdict.');
    expect(result.stdout).not.toContain('gate: ');
    // .concord/ (the verdict cache) may have been started; no snapshot was written.
    expect((await readdir(root)).filter((name) => name !== '.concord').sort()).toEqual(['plugins', 'scenarios']);
  },
);

it.each(['process.exit(3)', 'process.reallyExit(3)'])(
  'a tool calling %s mid-gate: its code stays, and stderr says the command had not finished',
  async (quit) => {
    await writeFile(join(root, 'plugins', 'quitter.mjs'), quitter(quit));
    const result = gate();
    expect(result.status, result.stderr).toBe(3);
    expect(result.stderr).toContain('concord gate: the process ended with 3 before the command finished.');
  },
);
