import { mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installedApart } from '../../test/packed.js';
import { concordIn } from '../test/concord-cli.js';
import { projectWith } from '../test/project-files.js';

// The gate as a project installs it (the packed tarball, beside the project), given files of the project that are
// links to a file outside it: neither is read, and nothing of the outside file reaches the output.
const SECRET = 'hunter2-outside';
const SCENARIO = `name: cities
description: A conversation recorded from a live model.
runtimes: [typescript]
composition:
  - { id: tools, plugin: concord/tools, config: { mode: code } }
  - { id: agent, plugin: concord/agent, config: { persona: Brief. } }
script:
  - user: Which cities?
`;

let root = '';
let outside = '';
let install = { bin: '', dir: '' };
beforeAll(async () => {
  root = await projectWith('links-out', {
    'concord.config.yml': 'runtimes: [typescript]\n',
    'scenarios/cities.yml': SCENARIO,
  });
  outside = await mkdtemp(join(tmpdir(), 'concord-outside-'));
  await writeFile(join(outside, 'secret.yml'), `password: ${SECRET}\n`);
  install = await installedApart('links-out');
}, 120_000);
afterAll(() => Promise.all([root, outside, install.dir].map((dir) => rm(dir, { recursive: true, force: true }))));

const gate = () =>
  concordIn(
    () => root,
    120_000,
    () => install.bin,
  )({ CI: 'true' }, 'gate');

it('refuses a recorded conversation that is a link out of the project, printing nothing of the file it leads to', {
  timeout: 150_000,
}, async () => {
  const recording = join(root, 'scenarios', 'cities.recorded.typescript.yml');
  await symlink(join(outside, 'secret.yml'), recording);
  try {
    const run = gate();
    const output = run.stdout + run.stderr;
    expect(run.status, output).not.toBe(0);
    expect(output).toContain('cities.recorded.typescript.yml');
    expect(output).toContain('leads outside the project root');
    expect(output).not.toContain(SECRET);
  } finally {
    await unlink(recording);
  }
});

it('refuses a concord.config.yml that is a link out of the project (exit 2), printing nothing of the file', {
  timeout: 150_000,
}, async () => {
  await unlink(join(root, 'concord.config.yml'));
  await symlink(join(outside, 'secret.yml'), join(root, 'concord.config.yml'));
  const run = gate();
  expect(run.status, run.stdout + run.stderr).toBe(2);
  expect(run.stderr).toContain('concord.config.yml: leads outside the project root');
  expect(run.stdout + run.stderr).not.toContain(SECRET);
});
