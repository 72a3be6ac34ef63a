import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { Host } from '../../test/host-requirements.js';
import { installedWithout } from '../../test/packed.js';
import { writeStockProject } from '../project/stock-project.js';
import { keepCache, seedCache } from '../test/warm-cache.js';

// A closed port on loopback: nothing answers there, while /var/run/docker.sock may well answer.
const NOWHERE = 'tcp://127.0.0.1:9';
// The container's pair alone, for gates about it only: the TypeScript pair would run, and pass, as it does in
// the gates that show it.
const containerOnly = ['--runtime', 'python-container'];

let dir = '';
const gate = (env: Record<string, string>, ...args: string[]) =>
  gateWith(sourceAsset('bin/concord.mjs'), dir, env, ...args);
const gateWith = (bin: string, cwd: string, env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [bin, 'gate', '--jobs', '1', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
    env: { ...process.env, CI: '', NO_COLOR: '1', GITHUB_STEP_SUMMARY: '', ...env },
  });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-availability-'));
  // About runtimes that cannot run, not plugin loading: the plugin is JavaScript, so no gate here loads tsx.
  await writeStockProject(dir, 'stock', { javascript: true, runtimes: '[typescript, python-container]' });
  // Not about a cold start: the gates start from the verdicts earlier gates of the run computed.
  await seedCache(dir);
  const made = gate({}, '--update=new', '--runtime', 'typescript');
  expect(made.status, made.stdout + made.stderr).toBe(0);
  await keepCache(dir);
  // The container's snapshots are committed: the TypeScript folder stands in for them (this gate never runs it).
  await cp(join(dir, 'snapshots', 'stock', 'typescript'), join(dir, 'snapshots', 'stock', 'python-container'), {
    recursive: true,
  });
}, 180_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a runtime with committed snapshots that cannot run', () => {
  it('fails a CI gate, naming the runtime, DOCKER_HOST and how to enable or skip it; no other engine is tried', {
    timeout: 120_000,
  }, () => {
    const run = gate({ CI: 'true', DOCKER_HOST: NOWHERE }, ...containerOnly);
    const output = run.stdout + run.stderr;
    expect(run.status, output).toBe(1);
    expect(output).toContain(
      `error: python-container cannot run here, and 1 committed snapshot folder(s) of it would go unchecked: no Docker engine answers (DOCKER_HOST=${NOWHERE} does not answer`,
    );
    expect(output).toContain('`npm run provision`');
    expect(output).toContain('--skip-runtime python-container');
    expect(output).toMatch(/✗ stock × python-container: failed/);
    expect(output.trimEnd().split('\n').at(-1)).toBe('gate: FAILED');
    // Why is said on the runtime's line and in the verdict, not again under the pair.
    expect(output).toContain(
      '✗ failed   stock × python-container  (python-container did not run: why is said above)\n',
    );
    expect(output.split(`DOCKER_HOST=${NOWHERE} does not answer`)).toHaveLength(3);
  });

  it('warns locally and passes on what did run', { timeout: 120_000 }, () => {
    const run = gate({ DOCKER_HOST: NOWHERE });
    const output = run.stdout + run.stderr;
    expect(run.status, output).toBe(0);
    expect(output).toContain('warning: python-container skipped on this machine: no Docker engine answers');
    expect(output).toContain('CI fails on this');
    expect(output).toMatch(/skipped: 1 python-container pair\(s\) — /);
    expect(output).toContain(
      '- skipped  stock × python-container  (python-container did not run: why is said above)\n',
    );
    expect(output.split('no Docker engine answers')).toHaveLength(3);
  });

  it('--skip-runtime opts out explicitly in CI, and the summary says so', { timeout: 120_000 }, () => {
    const run = gate({ CI: 'true', DOCKER_HOST: NOWHERE }, ...containerOnly, '--skip-runtime', 'python-container');
    const output = run.stdout + run.stderr;
    expect(run.status, output).toBe(0);
    expect(output).toContain(
      'skipped: 1 python-container pair(s) — python-container skipped by --skip-runtime; 1 committed snapshot folder(s) of it are not checked',
    );
    expect(output).not.toContain('127.0.0.1:9');
  });

  it('--skip-runtime names only known runtimes', () => {
    const run = gate({}, '--skip-runtime', 'cobol');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      '--skip-runtime cobol: unknown runtime (known: typescript, python, pyodide, python-container)',
    );
  });
});

describe('the container runtime without testcontainers installed (an optional peer)', () => {
  let project = '';
  let bin = '';
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'concord-no-testcontainers-'));
    await cp(join(dir, 'scenarios'), join(project, 'scenarios'), { recursive: true });
    await cp(join(dir, 'snapshots'), join(project, 'snapshots'), { recursive: true });
    // Not about a cold start either: the first gate here takes the TypeScript pair's and the probe's verdicts
    // from the ones the gate above kept.
    await seedCache(project);
    bin = await installedWithout(project, ['testcontainers']);
  }, 120_000);
  afterAll(() => rm(project, { recursive: true, force: true }));
  const install = `npm install --save-dev testcontainers@${(createRequire(import.meta.url)('../../package.json') as { peerDependencies: Record<string, string> }).peerDependencies.testcontainers}`;

  it('fails a CI gate with committed container snapshots, in one line naming the install command', {
    timeout: 120_000,
  }, () => {
    const run = gateWith(bin, project, { CI: 'true' });
    const output = run.stdout + run.stderr;
    expect(run.status, output).toBe(1);
    expect(output).toContain(
      `error: python-container cannot run here, and 1 committed snapshot folder(s) of it would go unchecked: the CPython container runtime needs testcontainers, which is not installed: run \`${install}\`. (or pass --skip-runtime python-container`,
    );
    expect(output).toMatch(/✓ pass +stock × typescript/);
    expect(output.trimEnd().split('\n').at(-1)).toBe('gate: FAILED');
  });

  it('warns locally, and --skip-runtime opts out in CI', { timeout: 120_000 }, () => {
    const local = gateWith(bin, project, {}, ...containerOnly);
    expect(local.status, local.stdout + local.stderr).toBe(0);
    expect(local.stdout + local.stderr).toContain(
      `warning: python-container skipped on this machine: the CPython container runtime needs testcontainers, which is not installed: run \`${install}\``,
    );
    const skipped = gateWith(bin, project, { CI: 'true' }, ...containerOnly, '--skip-runtime', 'python-container');
    expect(skipped.status, skipped.stdout + skipped.stderr).toBe(0);
  });
});

// As root, the Pyodide worker runs as nobody. concord installed inside a private folder is copied to the temp
// dir for it; with the temp dir private too, no worker can start: the gate says so once, as the runtime's
// availability (as for a missing Docker engine), not through every program and stub check that boots one.
(await Host.with('root')).describe('Pyodide that cannot start here (concord and TMPDIR where nobody can read)', () => {
  let project = '';
  let bin = '';
  let privateTemp = '';
  beforeAll(async () => {
    // mkdtemp makes the folder 0700: nobody cannot read the concord installed under it.
    project = await mkdtemp(join(tmpdir(), 'concord-no-pyodide-'));
    await writeStockProject(project, 'stock', { javascript: true, runtimes: '[python, pyodide]' });
    await seedCache(project);
    bin = await installedWithout(project, []);
    const made = gateWith(bin, project, {}, '--update=new', '--runtime', 'python');
    expect(made.status, made.stdout + made.stderr).toBe(0);
    await keepCache(project);
    // Pyodide's snapshots are committed: the Python folder stands in for them (no gate here runs it).
    await cp(join(project, 'snapshots', 'stock', 'python'), join(project, 'snapshots', 'stock', 'pyodide'), {
      recursive: true,
    });
    privateTemp = join(project, 'tmp');
    await mkdir(privateTemp);
  }, 180_000);
  afterAll(() => rm(project, { recursive: true, force: true }));
  const why = 'the Pyodide worker runs as the unprivileged user nobody and cannot read its files';

  it('fails a CI gate once, as the runtime; the Python pair passes, its Pyodide checker listed as not available', {
    timeout: 120_000,
  }, async () => {
    const run = gateWith(bin, project, { CI: 'true', TMPDIR: privateTemp });
    const output = run.stdout + run.stderr;
    expect(run.status, output).toBe(1);
    expect(output).toContain(
      `error: pyodide cannot run here, and 1 committed snapshot folder(s) of it would go unchecked: ${why}`,
    );
    // The temp dir lies inside the project here: it is named from the project root, as every project file is.
    expect(output).toContain(
      `Make the temp dir (${relative(project, privateTemp)}) reachable by every user, or set TMPDIR to one that is.`,
    );
    expect(output).toContain('✗ failed   stock × pyodide  (pyodide did not run: why is said above)\n');
    expect(output).toMatch(/✓ pass +stock × python /);
    // On the runtime's line and in the verdict: no diff of a run that never was, no check blaming the SDK.
    expect(output.split(why)).toHaveLength(3);
    expect(output).not.toContain('changed: ');
    expect(await readFile(join(project, '.concord', 'report.md'), 'utf8')).toContain(
      `- not available: pyodide: ${why}`,
    );
    expect(output.trimEnd().split('\n').at(-1)).toBe('gate: FAILED');
  });

  it('record refuses before asking the model, naming the runtimes of the language that do run here', {
    timeout: 120_000,
  }, () => {
    // No model answers at this address, and none is asked: the refusal comes first (--force: the scenario's
    // conversation is hand-written, and would be replaced). No Docker engine either.
    const run = spawnSync(
      process.execPath,
      [
        bin,
        'record',
        '--scenario',
        'stock',
        '--force',
        '--runtime',
        'pyodide',
        '--model-url',
        'http://127.0.0.1:9/v1',
        '--model',
        'm',
      ],
      {
        cwd: project,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, NO_COLOR: '1', TMPDIR: privateTemp, DOCKER_HOST: NOWHERE },
      },
    );
    expect(run.status, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(`^concord record: pyodide cannot run here: ${why}.*; record on --runtime python instead\\n$`, 's'),
    );
    // concord run says it the same way.
    const program = join(project, 'one.py');
    writeFileSync(program, 'return 1\n');
    const ran = spawnSync(process.execPath, [bin, 'run', '--runtime', 'pyodide', program], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, TMPDIR: privateTemp },
    });
    expect(ran.status, ran.stdout + ran.stderr).toBe(1);
    expect(ran.stderr).toMatch(
      new RegExp(`^concord run: pyodide cannot run here: ${why}[^\\n]*TMPDIR to one that is\\.\\n$`),
    );
  });
});
