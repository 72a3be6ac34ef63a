import { execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CPYTHON_IMAGES } from '../../runtimes/cpython/images.js';
import { builtModule } from '../../runtimes/seam/package-root.js';
import { Host } from '../../test/host-requirements.js';

const script = builtModule('harness/provision/provision.ts');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function provision(...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, ...args], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** The plan's line for one step: `skip`, `plan` or (never in a dry run) `start`, then the step's title. */
function stepLine(stdout: string, title: string): string | undefined {
  return stdout.split('\n').find((line) => /^(skip|plan|start) /.test(line) && line.slice(6).startsWith(`${title}:`));
}

describe('provision --dry-run', () => {
  it('plans every step and image without running any', async () => {
    const { code, stdout } = await provision('--dry-run', '--no-registry');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^provision: dry run, nothing is changed$/m);
    expect(stdout).not.toMatch(/^(start|done) /m);
    expect(stepLine(stdout, 'install packages')).toBeDefined();
    expect(stepLine(stdout, 'start the Docker engine')).toBeDefined();
    expect(stepLine(stdout, 'probe a registry for python:3.X-slim')).toContain('disabled by --no-registry');
    for (const image of CPYTHON_IMAGES) {
      // A local python:3.X-slim wins; otherwise the base is the Debian suite that ships the interpreter.
      const base = stepLine(stdout, `base image for CPython ${image.python}`);
      expect(base).toBeDefined();
      if (!base?.includes(image.registryBase)) {
        expect(base).toContain(image.debianBase);
        expect(base).toMatch(/is present with|debootstrap/);
        if (base?.includes('debootstrap')) expect(base).toContain(`--include=${image.debianPackage} ${image.suite}`);
      }
      expect(stepLine(stdout, `runtime image ${image.tag}`)).toBeDefined();
    }
    expect(stdout).toMatch(/^provision: plan complete$/m);
  });

  it('limits the plan to the versions named by --only', async () => {
    const { code, stdout } = await provision('--dry-run', '--no-registry', '--only', '3.9,3.13');
    expect(code).toBe(0);
    const planned = CPYTHON_IMAGES.filter((image) => stepLine(stdout, `runtime image ${image.tag}`) !== undefined);
    expect(planned.map((image) => image.python)).toEqual(['3.9', '3.13']);
  });

  it('rejects an unsupported version with exit 2, naming the supported ones', async () => {
    const { code, stderr } = await provision('--dry-run', '--only', '3.10');
    expect(code).toBe(2);
    expect(stderr).toContain('no CPython runtime image for "3.10"; supported versions: 3.9, 3.11, 3.13, 3.14');
  });

  it('describes itself with --help', async () => {
    const { code, stdout } = await provision('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('--dry-run');
    expect(stdout).toContain('concord-cpython:3.9');
  });
});

describe('concord provision', () => {
  const concord = fileURLToPath(new URL('../../bin/concord.mjs', import.meta.url));
  const cli = async (...args: string[]): Promise<Outcome> => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [concord, 'provision', ...args], {
        timeout: 60_000,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  };

  it('is the same script: its options pass through, and its exit code comes back', async () => {
    const plan = await cli('--dry-run', '--no-registry', '--only', '3.9');
    expect(plan.code, plan.stderr).toBe(0);
    expect(stepLine(plan.stdout, 'runtime image concord-cpython:3.9')).toBeDefined();
    expect((await cli('--dry-run', '--only', '3.10')).code).toBe(2);
  });

  it('--cache-key names the images by their versions and the hash of what they are built from', async () => {
    const { stdout } = await cli('--cache-key');
    expect(stdout.trim()).toMatch(
      new RegExp(`^concord-images-${CPYTHON_IMAGES.map((i) => i.python.replace('.', '\\.')).join('-')}-[0-9a-f]{16}$`),
    );
    expect((await cli('--cache-key', '--only', '3.9')).stdout.trim()).toMatch(/^concord-images-3\.9-[0-9a-f]{16}$/);
  });

  it('--image-cache plans to load the images from DIR/<key>.tar, or to build and save them there', async () => {
    const key = (await cli('--cache-key', '--only', '3.9')).stdout.trim();
    const { code, stdout } = await cli(
      '--dry-run',
      '--no-registry',
      '--only',
      '3.9',
      '--image-cache',
      '/nonexistent-cache',
    );
    expect(code).toBe(0);
    expect(stepLine(stdout, 'load the runtime images from the cache')).toContain(
      `/nonexistent-cache/${key}.tar does not exist yet`,
    );
    expect(stepLine(stdout, 'save the runtime images for the cache')).toContain(
      `docker save concord-cpython:3.9 to /nonexistent-cache/${key}.tar`,
    );
  });
});

// A base image is built by debootstrap into a tree under the temp dir. Stand-ins on PATH play an engine with no
// image (so the base must be built) and a debootstrap that writes its tree, notes its pid and waits: the run is then
// interrupted where it spends minutes for real.
(await Host.with('root')).describe('an interrupted provision', () => {
  // Made when a test of this block runs (a filtered run that skips them all leaves nothing behind).
  let work = '';
  let fakes = '';
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'concord-provision-'));
    fakes = join(work, 'bin');
    mkdirSync(fakes);
    const fake = (name: string, body: string) => {
      writeFileSync(join(fakes, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(fakes, name), 0o755);
    };
    fake('docker', 'case "$1" in info) echo 27.0 ;; *) exit 1 ;; esac');
    fake('dockerd', 'exit 1');
    // Its arguments: --variant, --include, the suite, the tree, the mirror.
    // A command of its own underneath (debootstrap runs apt, dpkg, wget): stopping the script alone would leave it
    // running.
    fake(
      'debootstrap',
      '[ -n "$DEBOOTSTRAP_FAILS" ] && exit 1\nmkdir -p "$4/etc" && echo base > "$4/etc/debian_version"\nsleep 60 &\necho $! > "$DEBOOTSTRAP_PID.child"\necho $$ > "$DEBOOTSTRAP_PID"\nwait',
    );
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /**
   * provision --only 3.9 with the stand-ins, in a temp dir of its own; `pidFile` gets the stand-in debootstrap's pid.
   */
  const start = (temp: string, pidFile: string, extra: Record<string, string> = {}) => {
    const child = spawn(process.execPath, [script, '--no-registry', '--only', '3.9'], {
      env: {
        ...process.env,
        PATH: `${fakes}${delimiter}${process.env.PATH}`,
        TMPDIR: temp,
        DEBOOTSTRAP_PID: pidFile,
        ...extra,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A group of its own: the kill -9 below ends the run and every command it started, as a cancelled CI job does.
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal, out })),
    );
    return { child, ended };
  };
  /** Whether `pid` still runs: a killed process its new parent has not reaped yet (a zombie) does not. */
  const running = (pid: number) => {
    try {
      return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  };
  const trees = (temp: string) => readdirSync(temp).filter((name) => name.startsWith('concord-rootfs-'));
  const freshTemp = () => mkdtempSync(join(work, 'tmp-'));

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} while debootstrap runs: exit ${code}, debootstrap and what it started stopped, its tree removed`, {
      timeout: 60_000,
    }, async () => {
      const temp = freshTemp();
      const pidFile = join(work, `${signal}.pid`);
      const { child, ended } = start(temp, pidFile);
      await vi.waitFor(() => expect(existsSync(pidFile)).toBe(true), { timeout: 30_000, interval: 100 });
      const debootstrap = [Number(readFileSync(pidFile, 'utf8')), Number(readFileSync(`${pidFile}.child`, 'utf8'))];
      expect(trees(temp)).toHaveLength(1);
      child.kill(signal);
      const { code: exitCode, out } = await ended;
      expect(exitCode, out).toBe(code);
      expect(out).toContain(`provision: interrupted (${signal})`);
      expect(out).not.toContain('provision: failed');
      expect(trees(temp)).toEqual([]);
      expect(debootstrap.filter(running)).toEqual([]);
    });
  }

  it('killed outright, it leaves its tree; the next run that builds a base removes it, naming the run', {
    timeout: 60_000,
  }, async () => {
    const temp = freshTemp();
    const pidFile = join(work, 'kill.pid');
    const { child, ended } = start(temp, pidFile);
    await vi.waitFor(() => expect(existsSync(pidFile)).toBe(true), { timeout: 30_000, interval: 100 });
    process.kill(-child.pid!, 'SIGKILL');
    expect((await ended).signal).toBe('SIGKILL');
    const [left] = trees(temp);
    expect(left).toMatch(new RegExp(`^concord-rootfs-${child.pid}-bullseye-`));

    // The next run's debootstrap fails at once: the step fails (exit 1), after the sweep.
    const next = await start(temp, join(work, 'next.pid'), { DEBOOTSTRAP_FAILS: '1' }).ended;
    expect(next.code, next.out).toBe(1);
    expect(next.out).toContain(`removing ${join(temp, left!)}, left by provision run ${child.pid}, which was killed`);
    expect(trees(temp)).toEqual([]);
  });
});
