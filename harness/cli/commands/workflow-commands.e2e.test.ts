import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { concordIn } from '../../test/concord-cli.js';
import { projectWith } from '../../test/project-files.js';
import { workflowCommandsRun } from '../../test/workflow-runner.js';

// On GitHub Actions a printed line that reads as a workflow command acts on the job. A persona (or a tool's
// description, a program's log) whose lines read as commands shows up in the gate's diff.
const PERSONA = [
  'You help.',
  '::add-mask::FAILED',
  '::error title=forged::a forged annotation',
  'see ##[warning]the legacy form',
];
const scenario = (persona: readonly string[]) => `name: forged
description: A persona whose lines read as workflow commands.
runtimes: [typescript]
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: agent
    plugin: concord/agent
    config:
      persona: |
${persona.map((line) => `        ${line}`).join('\n')}
script:
  - user: Hi.
  - final: Hello.
`;

let root = '';
/** What the gate that wrote the snapshots printed: off GitHub Actions. */
let local = '';
beforeAll(async () => {
  root = await projectWith('workflow-commands', { 'scenarios/forged.yml': scenario(PERSONA) });
  const recorded = concord({}, 'gate', '--update=new');
  expect(recorded.status, recorded.stdout + recorded.stderr).toBe(0);
  local = recorded.stdout + recorded.stderr;
});
afterAll(() => rm(root, { recursive: true, force: true }));

const concord = concordIn(() => root, 60_000);
const onGithub = () => ({ CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: root });

it('runs none of the commands a diff shows, only its own annotation, and leaves the runner reading commands', async () => {
  await writeFile(join(root, 'scenarios', 'forged.yml'), scenario(['You help gladly.', ...PERSONA.slice(1)]));
  const gate = concord(onGithub(), 'gate');
  await writeFile(join(root, 'scenarios', 'forged.yml'), scenario(PERSONA));
  expect(gate.status, gate.stderr).toBe(1);
  // The lines are there to read, word for word, and the verdict with them.
  for (const line of PERSONA.slice(1)) expect(gate.stdout).toContain(`       ${line}\n`);
  expect(gate.stdout).toContain('gate: FAILED');
  const { ran, stoppedAtEnd } = workflowCommandsRun(gate.stdout + '\n' + gate.stderr);
  expect(ran).toEqual([
    expect.stringMatching(
      /^::error file=scenarios\/forged\.yml,line=\d+,title=concord%3A forged × typescript mismatch::changed: snapshots\/forged\/typescript\//,
    ),
  ]);
  expect(stoppedAtEnd).toBe(false);
});

it('off GitHub Actions prints no workflow command at all; on it, a passing gate runs none', async () => {
  expect(local).not.toContain('stop-commands');
  const passing = concord(onGithub(), 'gate');
  expect(passing.status, passing.stderr).toBe(0);
  expect(workflowCommandsRun(passing.stdout + '\n' + passing.stderr)).toEqual({ ran: [], stoppedAtEnd: false });
});
