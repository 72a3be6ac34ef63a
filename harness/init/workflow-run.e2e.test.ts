import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { installedWithout, packed } from '../../test/packed.js';
import { STOCK_PLUGIN } from '../project/stock-project.js';
import { keepCache, seedCache } from '../test/warm-cache.js';

// A backend's repository as a new user makes it: the packed tarball kept in vendor/ by `init --vendor`, the
// workflow `init --ci github` writes, snapshots committed; then a fresh clone runs the workflow's `run:` steps
// in order, as a runner would, with the caches its `uses:` steps restore.

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}

let work = '';
let tarball = '';
const log: string[] = [];

/** The environment of a shell far from this repository: nothing of the npm script that runs these tests. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^npm_|^CI$|^INIT_CWD$|^GITHUB_|^RUNNER_/i.test(key)) env[key] = value;
  return { ...env, NO_COLOR: '1', ...extra };
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout, then stderr. */
  out: string;
  seconds: number;
}

/** Runs a command; `seconds` is how long it took, for the log. */
function sh(cwd: string, command: string, args: string[], extra: Record<string, string> = {}): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 900_000,
      env: cleanEnv(extra),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) =>
      resolve({ status, stdout, stderr, out: `${stdout}${stderr}`, seconds: (performance.now() - started) / 1000 }),
    );
  });
}

/** `actions/setup-python`, emulated: each requested CPython found among the local interpreters goes on PATH. */
async function setupPython(versions: string[]): Promise<{ path: string[]; missing: string[] }> {
  const root = (await sh(work, 'pyenv', ['root'])).stdout.trim();
  const installed = root && existsSync(join(root, 'versions')) ? readdirSync(join(root, 'versions')) : [];
  const path: string[] = [];
  const missing: string[] = [];
  for (const version of versions) {
    const found = installed.find((v) => v === version || v.startsWith(`${version}.`));
    if (found) path.push(join(root, 'versions', found, 'bin'));
    else missing.push(version);
  }
  return { path, missing };
}

/** `${{ … }}` expressions the generated workflow uses, from what the emulated runner knows. */
function expand(
  text: string,
  context: { outputs: Record<string, Record<string, string>>; runnerTemp: string },
): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (output) return context.outputs[output[1]!]?.[output[2]!] ?? '';
    if (expression === 'runner.temp') return context.runnerTemp;
    throw new Error(`the emulated runner does not know \${{ ${expression} }}`);
  });
}

/**
 * The `run:` steps of one job, in order, under bash -e as the runner runs them; `uses:` steps are skipped
 * except setup-python (local interpreters), setup-node's `cache: npm` (npm's packages come from this machine's
 * npm cache, as from the cache an earlier run with the same lockfile saved; without it, from an empty cache)
 * and, when `verdictCache` names a folder, the actions/cache step of `.concord/cache`, which restores a copy of
 * it (the cache an earlier run on main saved). `sudo` is dropped: these tests run as root, as CI does.
 */
async function runJob(
  job: { steps: Step[] },
  cwd: string,
  env: Record<string, string>,
  verdictCache?: string,
): Promise<Array<{ run: string; status: number | null; out: string }>> {
  const runnerTemp = env.RUNNER_TEMP!;
  const outputFile = join(runnerTemp, 'github-output');
  const outputs: Record<string, Record<string, string>> = {};
  let path = env.PATH ?? process.env.PATH!;
  let npmCache = join(runnerTemp, 'npm-cache');
  const ran: Array<{ run: string; status: number | null; out: string }> = [];
  for (const step of job.steps) {
    if (step.uses?.startsWith('actions/setup-node@') && step.with?.cache === 'npm') {
      npmCache = (await sh(work, 'npm', ['config', 'get', 'cache'])).stdout.trim();
      log.push(`setup-node: npm packages from this machine's npm cache (${npmCache})`);
      continue;
    }
    if (step.uses?.startsWith('actions/setup-python@')) {
      const { path: bins, missing } = await setupPython(String(step.with!['python-version']).trim().split(/\s+/));
      path = [...bins, path].join(delimiter);
      if (missing.length > 0)
        log.push(`setup-python: no local CPython ${missing.join(', ')}; the gate uses what it finds`);
      continue;
    }
    if (step.uses?.startsWith('actions/cache@') && step.with?.path === '.concord/cache' && verdictCache !== undefined) {
      await cp(verdictCache, join(cwd, '.concord', 'cache'), { recursive: true });
      log.push(`actions/cache: restored .concord/cache from ${verdictCache}`);
      continue;
    }
    if (step.run === undefined) continue;
    const script = expand(step.run, { outputs, runnerTemp }).replace(/^sudo /, '');
    await writeFile(outputFile, '');
    const run = await sh(cwd, 'bash', ['-e', '-c', script], {
      ...env,
      PATH: path,
      GITHUB_OUTPUT: outputFile,
      npm_config_cache: npmCache,
    });
    ran.push({ run: script, status: run.status, out: run.out });
    log.push(`$ ${script}   (${run.seconds.toFixed(1)} s)\n${run.out.split('\n').slice(-8).join('\n')}`);
    if (run.status !== 0) break;
    if (step.id) {
      const text = await readFile(outputFile, 'utf8');
      outputs[step.id] = Object.fromEntries(
        text
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
    }
  }
  return ran;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'concord-workflow-'));
  // The tarball the test setup packed from this run's build.
  ({ tarball } = packed());
});

afterAll(async () => {
  if (log.length > 0) console.log(log.join('\n'));
  await rm(work, { recursive: true, force: true });
});

describe('the workflow concord init writes, run as a runner would', () => {
  it('init --vendor keeps the tarball in the repository; a fresh clone runs every run: step green, and a changed prompt fails with an annotation at the scenario', {
    timeout: 1_800_000,
  }, async () => {
    const project = join(work, 'shop');
    await mkdir(join(project, 'src', 'plugins'), { recursive: true });
    // The repository ignores its installed packages, as a backend's does; init adds .concord/.
    await writeFile(join(project, '.gitignore'), 'node_modules/\n');
    // The optional peers this backend's gate uses: a .ts plugin (tsx), Python programs type-checked (pyright), the SDK
    // cost
    // in tokens, and the container runtime the workflow builds images for (testcontainers): every runtime runs, none is
    // skipped.
    const pinned = (
      JSON.parse(await readFile(join(packageRoot(), 'package.json'), 'utf8')) as {
        peerDependencies: Record<string, string>;
      }
    ).peerDependencies;
    const peers = Object.fromEntries(
      ['js-tiktoken', 'pyright', 'testcontainers', 'tsx'].map((name) => [name, pinned[name]!]),
    );
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'shop', private: true, type: 'module', devDependencies: peers }, null, 2) + '\n',
    );
    await writeFile(join(project, 'src', 'plugins', 'stock.ts'), STOCK_PLUGIN);
    const init = await sh(project, process.execPath, [
      join(packageRoot(), 'bin', 'concord.mjs'),
      'init',
      '--vendor',
      tarball,
      '--plugin',
      './src/plugins/stock.ts',
      '--ci',
      'github',
    ]);
    expect(init.status, init.out).toBe(0);
    const file = tarball.slice(tarball.lastIndexOf('/') + 1);
    expect(init.stdout).toContain(`wrote    vendor/${file}`);
    expect(init.stdout).toContain(`updated  package.json (devDependencies.concord: file:vendor/${file}`);
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(manifest.devDependencies.concord).toBe(`file:vendor/${file}`);
    // A second init changes nothing.
    const again = await sh(project, process.execPath, [
      join(packageRoot(), 'bin', 'concord.mjs'),
      'init',
      '--vendor',
      tarball,
      '--ci',
      'github',
    ]);
    expect(again.stdout).toContain(`kept     package.json (concord is file:vendor/${file})`);

    // The lockfile npm writes for this package.json, resolved as `npm install` resolves it (concord from
    // vendor/); the recording gate runs from the packed files with this checkout's packages beside them, and
    // the runners' `npm ci` installs from this lockfile for real.
    const lock = await sh(project, 'npm', [
      'install',
      '--package-lock-only',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
    ]);
    expect(lock.status, lock.out).toBe(0);
    const locked = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string }>;
    };
    expect(locked.packages['node_modules/concord']?.resolved).toBe(`file:vendor/${file}`);
    const bin = await installedWithout(project, []);
    // Not about a cold start: the recording gate starts from the verdicts earlier gates of the run computed.
    await seedCache(project);
    const record = await sh(project, process.execPath, [bin, 'gate', '--update=new']);
    expect(record.status, record.out).toBe(0);
    await keepCache(project);
    for (const args of [
      ['init', '-q', '-b', 'main'],
      ['add', '-A'],
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'gate'],
    ]) {
      expect((await sh(project, 'git', args)).status).toBe(0);
    }
    // What the repository holds: the tarball in vendor/, no installed package.
    const tracked = (await sh(project, 'git', ['ls-files'])).stdout.split('\n');
    expect(tracked).toContain(`vendor/${file}`);
    expect(tracked.filter((f) => f.startsWith('node_modules/'))).toEqual([]);

    const clone = join(work, 'clone');
    expect((await sh(work, 'git', ['clone', '-q', project, clone])).status).toBe(0);
    const workflow = parse(await readFile(join(clone, '.github', 'workflows', 'concord.yml'), 'utf8')) as {
      jobs: Record<string, { steps: Step[] }>;
    };
    expect(Object.keys(workflow.jobs)).toEqual(['gate']);
    const runnerTemp = await mkdtemp(join(tmpdir(), 'concord-runner-'));
    await mkdir(join(runnerTemp, 'npm-cache'));
    const summary = join(runnerTemp, 'step-summary.md');
    const env = {
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: clone,
      GITHUB_STEP_SUMMARY: summary,
      RUNNER_TEMP: runnerTemp,
    };
    try {
      // The runner's actions/cache restores the verdict cache the recording run left, and setup-node the npm
      // cache (the checks of an unchanged SDK and npm's downloads are not this test's subject; the images are:
      // their cache misses, so they are built or loaded and saved).
      expect(
        workflow.jobs.gate!.steps.some(
          (s) => s.uses?.startsWith('actions/cache@') && s.with?.path === '.concord/cache',
        ),
      ).toBe(true);
      expect(
        workflow.jobs.gate!.steps.some((s) => s.uses?.startsWith('actions/setup-node@') && s.with?.cache === 'npm'),
      ).toBe(true);
      const ran = await runJob(workflow.jobs.gate!, clone, env, join(project, '.concord', 'cache'));
      const failed = ran.find((r) => r.status !== 0);
      expect(failed, failed && `${failed.run}\n${failed.out}`).toBeUndefined();
      expect(ran.map((r) => r.run.split(' ').slice(0, 3).join(' '))).toEqual([
        'npm ci',
        'echo "key=$(npx concord',
        'env "PATH=$PATH" npx',
        'npx concord gate',
      ]);
      // The images were saved under their content-hash key for the next run's cache.
      expect(readdirSync(join(runnerTemp, 'concord-images'))).toEqual([
        expect.stringMatching(/^concord-images-3\.9-3\.11-3\.13-3\.14-[0-9a-f]{16}\.tar$/),
      ]);
      expect(ran.at(-1)!.out).toContain('gate: everything agrees');
      expect(ran.at(-1)!.out).not.toMatch(/^skipped:/m);
      expect(ran.at(-1)!.out).not.toContain('::error');
      expect(await readFile(summary, 'utf8')).toContain('## concord gate: ✅ everything agrees');
      expect(existsSync(join(clone, '.concord', 'junit.xml'))).toBe(true);

      // The prompt changes (the agent's persona): the same gate step fails and annotates the pair at its
      // scenario file. The SDK and the programs stay, so their checks are the ones the step before judged (a
      // changed SDK failing a CI gate is the newcomer test's subject; the annotation is this one's).
      const scenarioFile = join(clone, 'scenarios', 'stock.yml');
      const recorded = await readFile(scenarioFile, 'utf8');
      expect(recorded).toContain('persona: You are a helpful assistant.');
      await writeFile(
        scenarioFile,
        recorded.replace('persona: You are a helpful assistant.', 'persona: You are a careful assistant.'),
      );
      const gateStep = workflow.jobs.gate!.steps.filter((s) => s.run?.startsWith('npx concord gate'));
      const [failing] = await runJob({ steps: gateStep }, clone, env);
      expect(failing!.status, failing!.out).toBe(1);
      const scenario = await readFile(scenarioFile, 'utf8');
      const nameLine = scenario.split('\n').findIndex((l) => l.startsWith('name:')) + 1;
      expect(failing!.out).toMatch(
        new RegExp(
          `^::error file=scenarios/stock\\.yml,line=${nameLine},title=concord%3A stock × typescript mismatch::changed: snapshots/stock/typescript/`,
          'm',
        ),
      );
    } finally {
      await rm(runnerTemp, { recursive: true, force: true });
    }
  });
});
