import { execFile, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { guestServerCommand } from './guest-source.js';
import type { GuestTransport } from './guest-server.js';
import type { RunChannelListener } from './run-channel.js';

const run = promisify(execFile);

/** The account programs run as when concord itself runs as root. */
export interface UnprivilegedUser {
  name: string;
  uid: number;
  gid: number;
}

/** Whether the process isolation can keep a hostile program's processes (a fork bomb) in bounds. */
export interface Containment {
  /** Set when runs drop to an unprivileged user, where RLIMIT_NPROC binds. */
  user?: UnprivilegedUser;
  /** One sentence: how runs are contained, or why they cannot be. */
  reason: string;
}

/** Processes one run may own (RLIMIT_NPROC of the unprivileged user): enough for subprocesses, not a bomb. */
export const RUN_PROCESS_LIMIT = 64;

function nobody(): UnprivilegedUser {
  try {
    for (const entry of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , uid, gid] = entry.split(':');
      if (name === 'nobody' && uid !== undefined && gid !== undefined) return { name, uid: Number(uid), gid: Number(gid) };
    }
  } catch {
    // No passwd file: the conventional ids below still name an account without privileges.
  }
  return { name: 'nobody', uid: 65534, gid: 65534 };
}

export function processContainment(): Containment {
  const uid = process.getuid?.();
  if (uid === 0) {
    const user = nobody();
    return {
      user,
      reason: `runs drop to the unprivileged user ${user.name} (uid ${user.uid}) with at most ${RUN_PROCESS_LIMIT} processes`,
    };
  }
  return {
    reason:
      `concord runs as uid ${String(uid)}, not root: it cannot switch programs to an unprivileged user, and ` +
      'RLIMIT_NPROC would count every process of this account, so a fork bomb would not be contained',
  };
}

/** Every `name` on PATH, in PATH order; a name with a slash is its own single candidate. */
function candidates(python: string): string[] {
  if (python.includes('/')) return [python];
  const found: string[] = [];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const path = join(dir, python);
    try {
      accessSync(path, constants.X_OK);
      found.push(path);
    } catch {
      // Not on this PATH entry.
    }
  }
  return found;
}

/**
 * The real interpreter behind `python` (version-manager shims resolved) that `user` can run. Shims and
 * interpreters under a private home directory are skipped for the next candidate on PATH.
 */
export async function resolveInterpreter(python: string, user: UnprivilegedUser | undefined): Promise<string> {
  const tried: string[] = [];
  for (const candidate of candidates(python)) {
    let real: string;
    try {
      // Run as the host user with the host environment: a shim needs both to find its interpreter.
      real = (await run(candidate, ['-I', '-S', '-c', 'import sys; print(sys.executable)'])).stdout.trim();
    } catch (error) {
      tried.push(`${candidate}: does not run (${(error as Error).message.split('\n')[0]})`);
      continue;
    }
    if (real === '') {
      tried.push(`${candidate}: reports no executable path`);
      continue;
    }
    try {
      await run(real, ['-I', '-S', '-c', 'import asyncio, json, selectors'], {
        cwd: '/',
        env: {},
        ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
      });
      return real;
    } catch (error) {
      const who = user === undefined ? '' : ` as ${user.name}`;
      tried.push(`${real} (from ${candidate}): cannot run the guest's imports${who} (${(error as Error).message.split('\n')[0]})`);
    }
  }
  const account = user === undefined ? '' : ` for the unprivileged user ${user.name}`;
  const detail = tried.length === 0 ? `no "${python}" on PATH` : tried.map((line) => `  - ${line}`).join('\n');
  throw new Error(
    `concord: no usable CPython interpreter "${python}"${account}:\n${detail}\n` +
      'Set `python` in the cpython runtime config to an interpreter (3.9 or later) that every user may run, ' +
      'e.g. python: /usr/bin/python3.',
  );
}

const STDERR_TAIL_BYTES = 8 * 1024;
const running = new Set<number>();
let exitHookInstalled = false;

/** Kills every guest process group still running when the host exits, however it exits. */
function killGroupsOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const pid of running) killGroup(pid);
  });
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Kills the process group a server announced for its run. The number comes from the guest side, so the
 * signal is sent as the unprivileged user: whatever the number, it can only reach that user's processes.
 */
function killRunGroup(interpreter: string, user: UnprivilegedUser | undefined, group: number): void {
  if (user === undefined) {
    killGroup(group);
    return;
  }
  spawnSync(interpreter, ['-I', '-S', '-c', 'import os, sys\ntry:\n    os.killpg(int(sys.argv[1]), 9)\nexcept OSError:\n    pass', String(group)], {
    cwd: '/',
    env: {},
    uid: user.uid,
    gid: user.gid,
    stdio: 'ignore',
  });
}

/**
 * Starts a guest server from the resolved interpreter in a scrubbed environment and its own process group.
 * With `runChannel`, runs talk to the host over it instead of through the server's relay.
 */
export function launchProcessGuest(
  interpreter: string,
  user: UnprivilegedUser | undefined,
  runChannel?: RunChannelListener,
): GuestTransport {
  const [command, ...args] = guestServerCommand(interpreter);
  const child = spawn(command!, args, {
    cwd: '/',
    env: {},
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr = (stderr + text).slice(-STDERR_TAIL_BYTES);
  });
  const pid = child.pid;
  if (pid !== undefined) {
    running.add(pid);
    killGroupsOnExit();
  }
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`could not start ${interpreter}: ${error.message}`));
    child.once('exit', (code, signal) => resolve(signal === null ? `exit ${String(code)}` : `signal ${signal}`));
  });
  void exited.then(() => {
    if (pid !== undefined) {
      // The server is gone; anything left in its group goes with it.
      killGroup(pid);
      running.delete(pid);
    }
  });
  return {
    input: child.stdin,
    output: child.stdout,
    stderrTail: () => stderr,
    ...(runChannel === undefined ? {} : { runChannel }),
    exited,
    kill: async (runGroup) => {
      if (runGroup !== undefined) killRunGroup(interpreter, user, runGroup);
      if (pid !== undefined) killGroup(pid);
      await exited;
    },
  };
}
