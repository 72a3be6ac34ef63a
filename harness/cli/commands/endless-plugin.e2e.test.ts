import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sourceAsset } from '../../../runtimes/seam/package-root.js';
import { killProcessGroup } from '../../test/process-group.js';
import { projectWith } from '../../test/project-files.js';

// A plugin's apply that loops without end blocks the command's JavaScript, its signal handlers included: Ctrl-C
// still ends it (its watchdog, in the same process group, does), and nothing it started is left behind.

const SCENARIO = `name: spinning
description: A plugin that never returns from apply.
runtimes: [typescript]
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: spinner
    plugin: ../plugins/spinner.mjs
  - id: agent
    plugin: concord/agent
    config: { persona: Brief. }
script:
  - user: Spin.
  - final: Done.
`;

const SPINNER = `import { writeFileSync } from 'node:fs';
export default {
  name: 'spinner',
  apply() {
    writeFileSync(process.env.SPIN_MARK, 'spinning');
    for (;;) {}
  },
};
`;

let root = '';
let child: ChildProcess | undefined;
beforeEach(async () => {
  root = await projectWith('spin', { 'scenarios/spinning.yml': SCENARIO, 'plugins/spinner.mjs': SPINNER });
  await mkdir(join(root, 'tmp'));
});
afterEach(async () => {
  killProcessGroup(child);
  await rm(root, { recursive: true, force: true });
});

/** The pids of process group `group`, as ps lists them. */
function groupMembers(group: number): number[] {
  return spawnSync('ps', ['-eo', 'pid=,pgid='], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([pid, pgid]) => pgid === group && pid !== undefined && pid > 0)
    .map(([pid]) => pid!);
}

it('Ctrl-C ends a gate stuck in a plugin that loops without end, and leaves no process or temp folder', {
  timeout: 120_000,
}, async () => {
  const mark = join(root, 'spinning');
  const temp = join(root, 'tmp');
  let output = '';
  // In a process group of its own, as a terminal starts a command: Ctrl-C signals the whole group.
  child = spawn(process.execPath, [sourceAsset('bin/concord.mjs'), 'gate', '--root', root], {
    env: { ...process.env, CI: '', TMPDIR: temp, SPIN_MARK: mark },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child!.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const deadline = Date.now() + 60_000;
  while (!existsSync(mark)) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`the plugin never started spinning: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect((await readdir(temp)).some((name) => name.startsWith('concord-assembly-'))).toBe(true);
  const sent = Date.now();
  process.kill(-child.pid!, 'SIGINT');
  expect(await exited).toBe('SIGKILL');
  const took = Date.now() - sent;
  expect(took).toBeLessThan(30_000);
  // The watchdog says what happened, then removes what the command left, and ends.
  for (let waited = 0; waited < 10_000 && groupMembers(child.pid!).length > 0; waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
  expect(output).toContain('concord gate: SIGINT got no answer within 3 s');
  expect(groupMembers(child.pid!)).toEqual([]);
  expect(await readdir(temp)).toEqual([]);
});
