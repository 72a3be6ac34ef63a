import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, type TestOptions } from 'vitest';
import { findInterpreters } from '../harness/interpreters/local.js';
import { CPYTHON_IMAGES } from '../runtimes/cpython/images.js';
import { processContainment } from '../runtimes/cpython/process-launcher.js';
import { containerUnavailable } from '../runtimes/seam/docker-engine.js';
import { installNode } from './node-binaries.js';

/** Debian's Chromium, which `.ci/run` installs. */
export const CHROMIUM = '/usr/bin/chromium';

/** `CI` set to anything but empty, `false` or `0`. */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/**
 * Everything a test may need of the host, each with how to tell it is missing (the reason) or there
 * (undefined). This is the only list: a test that cannot run everywhere names what it needs from here, so CI
 * (which provides all of it) fails where something is missing instead of skipping the test.
 */
const REQUIREMENTS = {
  /** python-process runs get uids of their own (concord runs as root). */
  root: () =>
    processContainment().runUids === undefined
      ? `runs get no uids of their own: ${processContainment().reason}`
      : undefined,
  /**
   * Root, and this checkout's concord runs as the user nobody (a checkout inside a folder only root can enter does
   * not).
   */
  'concord as nobody': () => {
    if (process.getuid?.() !== 0) return 'not root, so no test can run concord as the user nobody';
    const bin = fileURLToPath(new URL('../bin/concord.mjs', import.meta.url));
    const run = spawnSync(process.execPath, [bin, '--version'], {
      cwd: '/',
      uid: 65534,
      gid: 65534,
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (run.status === 0) return undefined;
    const why =
      (run.stderr || run.error?.message || '').split('\n').find((line) => line.startsWith('Error: ')) ??
      `exit ${run.status}`;
    return `the user nobody cannot run ${bin} (${why}): put the checkout where every user can read it`;
  },
  /** python-process servers and runs get namespaces of their own (util-linux unshare, as root). */
  unshare: () =>
    processContainment().namespaces === undefined
      ? `no namespaces for runs: ${processContainment().notIsolated.join('; ')}`
      : undefined,
  /** A memory cgroup per python-process run. */
  'memory cgroup': () =>
    processContainment().memoryCgroup === undefined
      ? `no memory cgroup for runs: ${processContainment().notIsolated.join('; ')}`
      : undefined,
  /** A Docker engine with every CPython runtime image (`npm run provision`). */
  docker: async () => {
    const reasons = (await Promise.all(CPYTHON_IMAGES.map((image) => containerUnavailable(image.tag)))).filter(
      (r) => r !== undefined,
    );
    return reasons.length === 0 ? undefined : [...new Set(reasons)].join('; ');
  },
  chromium: () => (existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium)`),
  /** util-linux `script`, to give a command a real terminal. */
  script: () =>
    spawnSync('script', ['--version']).status === 0
      ? undefined
      : 'no `script` command (util-linux) to give a command a terminal',
  /** `chattr +i`, the only way to make a folder unwritable for root. */
  chattr: () => {
    const dir = mkdtempSync(join(tmpdir(), 'concord-chattr-'));
    try {
      const locked = spawnSync('chattr', ['+i', dir], { encoding: 'utf8' });
      if (locked.status !== 0)
        return `chattr +i is not available here, so no folder can be made unwritable for root: ${(locked.stderr || locked.error?.message || '').trim()}`;
      spawnSync('chattr', ['-i', dir]);
      return undefined;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  /** The npm registry, for tests that install the packed tarball into a fresh project. */
  'npm registry': () => {
    const ping = spawnSync('npm', ['ping'], { encoding: 'utf8', timeout: 30_000 });
    return ping.status === 0
      ? undefined
      : `npm ping failed: ${(ping.stderr || ping.error?.message || '').trim().split('\n')[0]}`;
  },
  /** Node binaries of the releases teams run, from the npm registry (kept between runs). */
  'node 22': () => installNode(22),
  'node 24': () => installNode(24),
  'node 26': () => installNode(26),
  /** A small tmpfs can be mounted (root with CAP_SYS_ADMIN): a disk that fills up, made on purpose. */
  tmpfs: () => {
    const dir = mkdtempSync(join(tmpdir(), 'concord-tmpfs-probe-'));
    try {
      const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', dir], { encoding: 'utf8' });
      if (mounted.status !== 0)
        return `cannot mount a tmpfs: ${(mounted.stderr || mounted.error?.message || '').trim()}`;
      spawnSync('umount', [dir]);
      return undefined;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  /** `python3` on PATH. */
  python3: () => (spawnSync('python3', ['--version']).status === 0 ? undefined : 'no python3 on PATH'),
  /** A local CPython 3.9, the floor (pyenv or PATH). */
  'python3.9': () =>
    findInterpreters().some((i) => i.version === '3.9')
      ? undefined
      : 'no local CPython 3.9 (the floor): install it with pyenv or put python3.9 on PATH',
  /** CPython interpreters installed with pyenv. */
  pyenv: () =>
    spawnSync('pyenv', ['root']).status === 0
      ? undefined
      : 'no pyenv (its interpreters run the guest on every CPython)',
} satisfies Record<string, () => string | undefined | Promise<string | undefined>>;

export type Requirement = keyof typeof REQUIREMENTS;

/**
 * What a machine may lack by design, even in CI: pyenv's interpreters are used where present and never
 * required (the container images carry the floor), so their tests skip, saying why, instead of failing.
 */
const OPTIONAL_EVEN_IN_CI: ReadonlySet<Requirement> = new Set(['pyenv', 'python3.9']);

const known = new Map<Requirement, Promise<string | undefined>>();
const reasonOf = (requirement: Requirement) => {
  let found = known.get(requirement);
  if (found === undefined) {
    found = Promise.resolve().then(REQUIREMENTS[requirement]);
    known.set(requirement, found);
  }
  return found;
};

/**
 * What the host lacks of `needed`. Its `describe` and `it` declare tests that run where all of it is there;
 * where something is missing they skip, saying why, and under CI they fail, naming it.
 */
export class Host {
  private constructor(
    readonly missing: string | undefined,
    private readonly lacksRequired: boolean,
  ) {}

  /** Under CI a missing requirement fails the run; an optional one (pyenv's interpreters) still skips. */
  private failsHere(): boolean {
    return this.lacksRequired && inCi();
  }

  static async with(...needed: Requirement[]): Promise<Host> {
    const reasons = await Promise.all(
      needed.map(async (requirement) => [requirement, await reasonOf(requirement)] as const),
    );
    const lacking = reasons
      .filter(([, reason]) => reason !== undefined)
      .map(([requirement, reason]) => `${requirement}: ${reason}`);
    const required = reasons.some(
      ([requirement, reason]) => reason !== undefined && !OPTIONAL_EVEN_IN_CI.has(requirement),
    );
    const host = new Host(lacking.length === 0 ? undefined : lacking.join('; '), required);
    if (host.missing !== undefined && !host.failsHere())
      console.warn(`skipped (needs ${needed.join(', ')}): ${host.missing}`);
    return host;
  }

  describe(title: string, body: () => void): void {
    if (this.missing === undefined) describe(title, body);
    else if (this.failsHere())
      describe(title, () =>
        it('has what these tests need (CI must provide it)', () =>
          expect.fail(`${title}: cannot run here: ${this.missing}`)),
      );
    else describe.skip(`${title} (skipped: ${this.missing})`, body);
  }

  it(title: string, options: TestOptions, fn: () => unknown): void {
    if (this.missing === undefined) it(title, options, fn);
    else if (this.failsHere()) it(title, () => expect.fail(`${title}: cannot run here: ${this.missing}`));
    else it.skip(`${title} (skipped: ${this.missing})`, fn);
  }
}
