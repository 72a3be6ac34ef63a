import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CPYTHON_DEFAULTS } from '../../../runtimes/cpython/runtime.js';
import { builtModule, sourceAsset } from '../../../runtimes/seam/package-root.js';
import { Host } from '../../../test/host-requirements.js';
import { seedCache } from '../../test/warm-cache.js';

/** A scenario of one `run_code` call on `runtime`, the program given in both languages. */
const oneProgram = (
  name: string,
  runtime: string,
  program: { typescript: string; python: string },
  timeoutMs = 30_000,
) => `name: ${name}
description: One program on ${runtime}.
runtimes: [${runtime}]
runtime: { timeoutMs: ${timeoutMs} }
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: agent
    plugin: concord/agent
    config: { persona: Patient. }
script:
  - user: Run it.
  - assistant:
      run_code:
        description: Run
        typescript: ${JSON.stringify(program.typescript)}
        python: ${JSON.stringify(program.python)}
  - final: Done.
`;

/** A container scenario whose one program sleeps, so a signal finds a container and a guest at work. */
const SLEEPER = oneProgram(
  'sleeper',
  'python-container',
  {
    typescript: 'await new Promise((r) => setTimeout(r, 60000)); return 1;',
    python: 'import time\ntime.sleep(60)\nreturn 1',
  },
  120_000,
);

/**
 * A scenario whose one program returns at once in a local CPython process: its gate makes every kind of temp folder.
 */
const QUICK = oneProgram('quick', 'python', { typescript: 'return 1 + 1;', python: 'return 1 + 1' });

const containersOf = (pid: number) =>
  spawnSync('docker', ['ps', '-aq', '--filter', `label=org.concord.host-pid=${pid}`], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);
const tempFolders = async (dir: string) =>
  (await readdir(dir)).filter((n) => /^concord-(channel|assembly|runs)-/.test(n));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  what: string,
  seconds: number,
  probe: () => Promise<T | undefined> | T | undefined,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await sleep(250);
  }
}

let work = '';
let temp = '';
let child: ChildProcess | undefined;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'concord-signals-'));
  // The child's own temp dir: the folders it leaves (or not) are told apart from everyone else's.
  temp = join(work, 'tmp');
  await mkdir(join(work, 'project', 'scenarios'), { recursive: true });
  await mkdir(temp);
  await writeFile(join(work, 'project', 'scenarios', 'sleeper.yml'), SLEEPER);
});
afterEach(async () => {
  if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (child?.pid !== undefined) {
    const left = containersOf(child.pid);
    if (left.length > 0) spawnSync('docker', ['rm', '-f', ...left]);
  }
  await rm(work, { recursive: true, force: true });
});

/** Starts `concord <args>` and waits until its runtime container runs and its temp folders exist. */
async function startWithContainer(...args: string[]): Promise<{
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
}> {
  let output = '';
  child = spawn(process.execPath, [sourceAsset('bin/concord.mjs'), ...args], {
    env: { ...process.env, CI: '', TMPDIR: temp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  const started = child;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    started.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await until(`a runtime container of concord ${args[0]}`, 90, () => {
    if (started.exitCode !== null) throw new Error(`concord ${args[0]} ended before its container ran: ${output}`);
    return containersOf(started.pid!).length > 0 ? true : undefined;
  });
  await until('its run channel folder', 30, async () =>
    (await tempFolders(temp)).some((n) => n.startsWith('concord-channel-')) ? true : undefined,
  );
  // Let the program get going inside the container.
  await sleep(1500);
  return { child: started, exit, output: () => output };
}

(await Host.with('docker')).describe('signals end concord cleanly', () => {
  it('SIGINT to a real gate running a container scenario: exit 130, no container or temp folder left within 15 s', {
    timeout: 180_000,
  }, async () => {
    // Not about a cold start: with the verdicts earlier gates of the run computed, the gate starts no interpreter
    // checkers (a Pyodide boot, local pythons) before its pair needs them, which the signal would only cut short.
    await seedCache(join(work, 'project'));
    const { child, exit, output } = await startWithContainer('gate', '--root', join(work, 'project'));
    expect((await tempFolders(temp)).some((n) => n.startsWith('concord-assembly-'))).toBe(true);
    const sent = Date.now();
    child.kill('SIGINT');
    expect(await exit).toEqual({ code: 130, signal: null });
    await until('no container and no temp folder left', 15, async () =>
      containersOf(child.pid!).length === 0 && (await tempFolders(temp)).length === 0 ? true : undefined,
    );
    console.log(`gate after SIGINT: clean ${Date.now() - sent} ms after the signal`);
    expect(output()).toContain('concord gate: SIGINT: stopping containers');
    expect(output()).not.toMatch(/\n\s+at /);
  });

  it('SIGTERM to `concord run` on python-container: exit 143, its container gone', { timeout: 180_000 }, async () => {
    const program = join(work, 'sleep.py');
    await writeFile(program, 'import time\ntime.sleep(60)\nreturn 1\n');
    const { child, exit } = await startWithContainer(
      'run',
      program,
      '--runtime',
      'python-container',
      '--timeout-ms',
      '120000',
    );
    child.kill('SIGTERM');
    expect(await exit).toEqual({ code: 143, signal: null });
    await until('no container and no temp folder left', 15, async () =>
      containersOf(child.pid!).length === 0 && (await tempFolders(temp)).length === 0 ? true : undefined,
    );
  });

  it('kill -9 of the gate: every container it started ends by itself within 15 s, and the next gate sweeps the temp folders it left', {
    timeout: 180_000,
  }, async () => {
    await seedCache(join(work, 'project'));
    const { child, exit } = await startWithContainer('gate', '--root', join(work, 'project'));
    const sent = Date.now();
    child.kill('SIGKILL');
    expect(await exit).toEqual({ code: null, signal: 'SIGKILL' });
    await until('no container left', 15, () => (containersOf(child.pid!).length === 0 ? true : undefined));
    console.log(`gate after SIGKILL: containers gone ${Date.now() - sent} ms after the kill`);
    // Its temp folders outlive it, named after it; the next command that makes such folders sweeps them.
    const left = await tempFolders(temp);
    expect(left.map((n) => n.replace(/-\d+-\w+$/, '')).sort()).toEqual(['concord-assembly', 'concord-channel']);
    expect(left.every((n) => n.includes(`-${child.pid}-`))).toBe(true);
    const next = join(work, 'next');
    await mkdir(join(next, 'scenarios'), { recursive: true });
    await writeFile(join(next, 'scenarios', 'quick.yml'), QUICK);
    await seedCache(next);
    const gate = spawnSync(process.execPath, [sourceAsset('bin/concord.mjs'), 'gate', '--update=new', '--root', next], {
      env: { ...process.env, CI: '', TMPDIR: temp },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(gate.status, gate.stdout + gate.stderr).toBe(0);
    expect(await tempFolders(temp)).toEqual([]);
  });

  it('kill -9 of a host the moment its container has started: that container ends by itself within 15 s', {
    timeout: 180_000,
  }, async () => {
    // No await between start() and the kill: a host that attached to the container only after its start
    // would leave it running untethered, waiting for an idle end that a bare sleeper never reaches.
    const script = `
      const { EXIT_WHEN_HOST_GONE, withHostStdin } = await import(${JSON.stringify(builtModule('runtimes/seam/container-tether.ts'))});
      const { dockerEngine } = await import(${JSON.stringify(builtModule('runtimes/seam/docker-engine.ts'))});
      const { ownedContainerLabels } = await import(${JSON.stringify(builtModule('runtimes/seam/owned-containers.ts'))});
      const { testcontainers } = await import(${JSON.stringify(builtModule('runtimes/seam/testcontainers.ts'))});
      const client = await dockerEngine();
      const { GenericContainer } = await testcontainers();
      const sleeper = [EXIT_WHEN_HOST_GONE, 'import time', 'while True:', '    time.sleep(60)'].join('\\n');
      await withHostStdin(new GenericContainer(${JSON.stringify(CPYTHON_DEFAULTS.image)}), client.container.dockerode)
        .withNetworkMode('none')
        .withLabels(ownedContainerLabels({}))
        .withCommand(['python3', '-I', '-S', '-c', sleeper])
        .start();
      process.kill(process.pid, 'SIGKILL');`;
    child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'inherit', 'inherit'] });
    const host = child;
    expect(await new Promise((resolve) => host.once('exit', (_code, signal) => resolve(signal)))).toBe('SIGKILL');
    const sent = Date.now();
    await until('no container left', 15, () => (containersOf(host.pid!).length === 0 ? true : undefined));
    console.log(`host killed as its container started: container gone ${Date.now() - sent} ms after`);
  });

  it('kill -9 of a host compiling stubs in a container: that container ends by itself within 15 s', {
    timeout: 180_000,
  }, async () => {
    const script = `
      const { ContainerInterpreter } = await import(${JSON.stringify(builtModule('harness/interpreters/container.ts'))});
      const interpreter = new ContainerInterpreter('3.9', ${JSON.stringify(CPYTHON_DEFAULTS.image)});
      await interpreter.compile(['x = 1\\n']);
      process.stdout.write('compiled\\n');
      setInterval(() => {}, 1000);`;
    child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const host = child;
    await new Promise<void>((resolve, reject) => {
      host.stdout!.once('data', () => resolve());
      host.once('exit', (code) => reject(new Error(`the host ended first (exit ${String(code)})`)));
    });
    expect(containersOf(host.pid!)).toHaveLength(1);
    host.kill('SIGKILL');
    await until('no stub-check container left', 15, () => (containersOf(host.pid!).length === 0 ? true : undefined));
  });
});
