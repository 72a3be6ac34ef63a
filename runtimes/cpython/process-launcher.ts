import { execFile, spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, type Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import { executablesOnPath, onPath } from '../seam/executables.js';
import { onHostExit } from '../seam/host-exit.js';
import { ownedTempDir } from '../seam/owned-temp-dir.js';
import type { GuestTransport } from './guest-server.js';
import { guestServerCommand } from './guest-source.js';
import { type MemoryCgroupRoot, memoryCgroupSupport } from './memory-cgroup.js';
import type { RunChannelListener } from './run-channel.js';

const run = promisify(execFile);

/**
 * First uid (and gid) of the range reserved for runs: a guest server with pid P gives its n-th run the uid
 * RUN_UID_BASE + P * RUN_UID_SLOTS + (n mod RUN_UID_SLOTS), so no two live runs on the host share one.
 * With pids below 2^22 (Linux's ceiling) the range ends below 2^31.
 */
export const RUN_UID_BASE = 2_000_000_000;
/** Uids one guest server cycles through (the guest module's RUN_UID_SLOTS). */
const RUN_UID_SLOTS = 16;
const PID_CEILING = 1 << 22;
export const RUN_UID_LAST = RUN_UID_BASE + PID_CEILING * RUN_UID_SLOTS - 1;

/** How the process isolation keeps runs apart here. */
export interface Containment {
  /** Set when each run gets a uid of its own from the reserved range (concord runs as root). */
  runUids?: { first: number; last: number };
  /**
   * Set when the guest server starts in network, IPC, PID and mount namespaces of its own (util-linux
   * unshare): runs see only their server's processes, get a fresh IPC namespace each and a private tmpfs
   * of `diskMb` as their folder.
   */
  namespaces?: Namespaces;
  /** Set when each run's processes share one memory cgroup of `memoryMb` (root, a memory controller). */
  memoryCgroup?: MemoryCgroupRoot;
  /** One sentence: how runs are contained. */
  reason: string;
  /** What is not isolated here, one short phrase each; empty when runs are fully contained. */
  notIsolated: string[];
}

/** Processes one run may own (RLIMIT_NPROC of its private uid): enough for subprocesses, not a bomb. */
export const RUN_PROCESS_LIMIT = 64;

/**
 * Runs as pid 1 of the server's own PID namespace, in its own mount namespace (the host's mounts do not
 * change): notes the pid the host sees (runs' uids are made from it), makes the shared temporary folders
 * read-only and keeps the scratch folder ($1) writable, mounts a /proc that shows only this namespace's
 * processes, then starts the server with an empty environment and that pid as its last argument.
 */
const MOUNT_SCRIPT = [
  'set -e',
  'scratch="$1"; shift',
  'host_pid=',
  'while read -r key value rest; do',
  '  if [ "$key" = NSpid: ]; then host_pid="$value"; fi',
  'done < /proc/self/status',
  'mount --bind "$scratch" "$scratch"',
  'for dir in /tmp /var/tmp /dev/shm /run/lock; do',
  '  if [ -d "$dir" ]; then mount --rbind "$dir" "$dir" && mount -o remount,bind,ro "$dir"; fi',
  'done',
  'mount -t proc -o nosuid,nodev,noexec proc /proc',
  'exec env -i "$@" "$host_pid"',
].join('\n');

/** Why a uid of the reserved range is already an account here, or undefined when the range is free. */
function reservedRangeProblem(): string | undefined {
  for (const file of ['/etc/passwd', '/etc/group']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const entry of text.split('\n')) {
      const [name, , id] = entry.split(':');
      const value = Number(id);
      if (Number.isInteger(value) && value >= RUN_UID_BASE && value <= RUN_UID_LAST) {
        return `${file} lists ${name} with id ${value}, inside the range reserved for runs (${RUN_UID_BASE}–${RUN_UID_LAST})`;
      }
    }
  }
  return undefined;
}

/**
 * How the guest server's namespaces are made: util-linux `unshare`, and whether in a user namespace of its own (where
 * concord is not root: the account maps to root there, so it may make the others).
 */
export interface Namespaces {
  unshare: string;
  user: boolean;
}

const namespaceProbes = new Map<boolean, Namespaces | string>();

/**
 * The unshare command when network, IPC, PID and mount namespaces can be made here (in a user namespace of their own
 * when `user`), else why not. Tried once each way.
 */
function namespaceSupport(user: boolean): Namespaces | string {
  const known = namespaceProbes.get(user);
  if (known !== undefined) return known;
  const probed = probeNamespaces(user);
  namespaceProbes.set(user, probed);
  return probed;
}

function probeNamespaces(user: boolean): Namespaces | string {
  const unshare = onPath('unshare', SYSTEM_PATH);
  if (unshare === undefined) return 'util-linux unshare is not on PATH';
  const scratch = ownedTempDir('concord-probe');
  try {
    const trial = spawnSync(unshare, [...namespaceArgs(user), 'sh', '-c', MOUNT_SCRIPT, 'sh', scratch, 'true'], {
      cwd: '/',
      env: { PATH: SYSTEM_PATH },
      encoding: 'utf8',
      timeout: 10_000,
    });
    return trial.status === 0
      ? { unshare, user }
      : `\`unshare\` failed here (${(trial.stderr ?? '').trim() || trial.error?.message || `status ${trial.status}`})`;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const SYSTEM_PATH = '/usr/sbin:/usr/bin:/sbin:/bin';

function namespaceArgs(user: boolean): string[] {
  // --kill-child: the server (pid 1 there, so every run with it) dies with the unshare process the host holds.
  const own = ['--net', '--ipc', '--pid', '--kill-child', '--mount', '--propagation', 'private', '--'];
  return user ? ['--user', '--map-root-user', ...own] : own;
}

export function processContainment(): Containment {
  const uid = process.getuid?.();
  if (uid !== 0) return unprivilegedContainment(uid);
  const rangeProblem = reservedRangeProblem();
  // As root, a run without an account of its own would run as root: refuse rather than pretend.
  if (rangeProblem !== undefined)
    throw new Error(
      `concord: CPython process runs need uids of their own, but ${rangeProblem}. Remove that account or run concord as another user.`,
    );
  const namespaces = namespaceSupport(false);
  const cgroup = memoryCgroupSupport();
  const notIsolated = [
    ...(typeof namespaces === 'string'
      ? [`network, the shared /tmp, SysV IPC, the host's process list and bytes written (${namespaces})`]
      : []),
    ...(typeof cgroup === 'string' ? [`memory of a process tree: memoryMb binds each process alone (${cgroup})`] : []),
  ];
  return {
    runUids: { first: RUN_UID_BASE, last: RUN_UID_LAST },
    ...(typeof namespaces === 'string' ? {} : { namespaces }),
    ...(typeof cgroup === 'string' ? {} : { memoryCgroup: cgroup }),
    reason: `each run has a uid of its own from ${RUN_UID_BASE} up, with at most ${RUN_PROCESS_LIMIT} processes`,
    notIsolated,
  };
}

/**
 * Where concord is not root, runs share its account: a user namespace of the server's own (where the host allows one)
 * still gives them their own network, IPC, process list and /proc (the environment of this account's other processes
 * out of reach) and a private folder; without one, they see all of it.
 */
function unprivilegedContainment(uid: number | undefined): Containment {
  const shared = [
    'other runs (they share this account: they can signal and read each other)',
    'processes (no process limit: RLIMIT_NPROC would count every process of this account)',
    'memory of a process tree (memoryMb binds each process alone)',
  ];
  const namespaces = namespaceSupport(true);
  if (typeof namespaces !== 'string')
    return {
      namespaces,
      reason: `concord runs as uid ${String(uid)}, not root: runs share this account, in namespaces of their own`,
      notIsolated: shared,
    };
  return {
    reason: `concord runs as uid ${String(uid)}, not root: runs share this account`,
    notIsolated: [
      ...shared,
      `network, the shared /tmp, SysV IPC, bytes written, the host's process list and the environment of this account's processes (/proc/<pid>/environ, the gate's own among them): no namespaces (${namespaces})`,
    ],
  };
}

/**
 * Whether a `python` process run could read the environment of this account's processes (concord's own among them)
 * from `/proc/<pid>/environ`: only where concord is not root and no user namespace can be made for the runs.
 */
export function processRunsSeeAccountEnviron(uid: number | undefined = process.getuid?.()): boolean {
  return uid !== 0 && typeof namespaceSupport(true) === 'string';
}

/** The folders that lead to `file`, from `/` down. */
function foldersOf(file: string): string[] {
  const folders: string[] = [];
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    folders.unshift(folder);
    if (dirname(folder) === folder) return folders;
  }
}

/**
 * Whether the mode bits of `stats` let `user` (an account with no other groups) search it as a folder or execute it as
 * a file.
 */
function opensTo(stats: Stats, user: { uid: number; gid: number }): boolean {
  const bit = stats.uid === user.uid ? 0o100 : stats.gid === user.gid ? 0o010 : 0o001;
  return (stats.mode & bit) !== 0;
}

/**
 * True when `user` surely cannot execute `file`: by their mode bits, a folder on its way (as named or as
 * resolved) is closed to it, or the file is not executable for it. Whatever cannot be looked at counts as open.
 */
async function closedTo(file: string, user: { uid: number; gid: number }): Promise<boolean> {
  const named = resolve(file);
  const real = await realpath(named).catch(() => named);
  const paths = [...new Set([...foldersOf(named), ...foldersOf(real), real])];
  const stats = await Promise.all(paths.map((path) => stat(path).catch(() => undefined)));
  return stats.some((s) => s !== undefined && !opensTo(s, user));
}

/**
 * The real interpreter behind `python` (version-manager shims resolved) that `user` can run. Candidates on
 * PATH that `user` cannot reach (under a private home directory) are skipped unrun, for the next one: a
 * version manager's shim there leads to interpreters there too, or, for the system's own, to a later candidate
 * (resolving pyenv's shim costs a score of bash processes). Interpreters that shims resolve to and `user`
 * cannot run are skipped the same way.
 */
export async function resolveInterpreter(python: string, runUid: number | undefined): Promise<string> {
  const user = runUid === undefined ? undefined : { name: `uid ${runUid}`, uid: runUid, gid: runUid };
  const tried: string[] = [];
  for (const candidate of executablesOnPath(python)) {
    if (user !== undefined && (await closedTo(candidate, user))) {
      tried.push(`${candidate}: not reachable for ${user.name} (a folder on its way or the file is closed to it)`);
      continue;
    }
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
      tried.push(
        `${real} (from ${candidate}): cannot run the guest's imports${who} (${(error as Error).message.split('\n')[0]})`,
      );
    }
  }
  if (tried.length === 0) throw new Error(noInterpreterOnPath(python));
  const account = user === undefined ? '' : ` that the account runs use (${user.name}) may run`;
  throw new Error(
    `concord: no CPython "${python}" on PATH${account}:\n${tried.map((line) => `  - ${line}`).join('\n')}\n` +
      'Install CPython 3.9 or later where every account may run it (/usr/bin/python3), or name one with the `python` option of the runtime entry in cordis.yml.',
  );
}

/** Why the `python` runtime cannot run here when no `python` is on PATH at all, naming the PATH searched. */
function noInterpreterOnPath(python: string): string {
  return `no "${python}" on PATH (${process.env.PATH ?? ''}): install CPython 3.9 or later, or put it on PATH`;
}

/** Why the `python` runtime cannot run here (no `python3` on PATH), or undefined when an interpreter may be found. */
export function processInterpreterUnavailable(python = 'python3'): string | undefined {
  return executablesOnPath(python).length === 0 ? noInterpreterOnPath(python) : undefined;
}

const STDERR_TAIL_BYTES = 8 * 1024;
const running = new Set<number>();
// Every guest process group still running when the host exits, however it exits, is killed.
onHostExit(() => {
  for (const pid of running) killGroup(pid);
});

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Kills what a run left when its server no longer answers. With a uid of its own, every process of that
 * uid goes (the number comes from the server, so the signal is sent as that uid, which can reach nothing
 * else); without, the process group the server announced. In a PID namespace (`groupInNamespace`) that
 * group is a number of the namespace, not the host's: there the server's death takes every run with it.
 */
function killRun(interpreter: string, group: number, runUid: number | undefined, groupInNamespace: boolean): void {
  if (runUid === undefined || runUid < RUN_UID_BASE || runUid > RUN_UID_LAST) {
    if (!groupInNamespace) killGroup(group);
    return;
  }
  spawnSync(interpreter, ['-I', '-S', '-c', 'import os\ntry:\n    os.kill(-1, 9)\nexcept OSError:\n    pass'], {
    cwd: '/',
    env: {},
    uid: runUid,
    gid: runUid,
    stdio: 'ignore',
  });
}

/** Where a guest server keeps its runs apart. */
export interface RunPlaces {
  /** A folder only this server uses: each run gets a fresh folder inside it (cwd, TMPDIR, HOME). */
  scratch: string;
  containment: Containment;
  /** What one run may keep in its folder, where the server has a mount namespace (a tmpfs of this size). */
  diskBytes?: number;
  /** This runtime's memory cgroup folder and each run's limit there, where the host has one. */
  memory?: { cgroup: string; bytes: number };
}

/** The guest server's options (see the guest module's docstring). */
function serverOptions(places: RunPlaces | undefined): Record<string, unknown> {
  if (places === undefined) return {};
  const { containment } = places;
  return {
    scratch: places.scratch,
    ...(containment.runUids === undefined ? {} : { uidBase: containment.runUids.first }),
    ...(containment.namespaces === undefined
      ? {}
      : { namespaces: true, ...(places.diskBytes === undefined ? {} : { diskBytes: places.diskBytes }) }),
    ...(places.memory === undefined || containment.memoryCgroup === undefined
      ? {}
      : {
          memoryCgroup: {
            path: places.memory.cgroup,
            version: containment.memoryCgroup.version,
            bytes: places.memory.bytes,
          },
        }),
  };
}

/**
 * Starts a guest server from the resolved interpreter in a scrubbed environment and its own process group.
 * With `runChannel`, runs talk to the host over it instead of through the server's relay. Without `places`
 * the server and its runs keep this process's account and namespaces, and the working directory `/`.
 */
export function launchProcessGuest(
  interpreter: string,
  places: RunPlaces | undefined,
  runChannel?: RunChannelListener,
): GuestTransport {
  const containment = places?.containment;
  const server = [...guestServerCommand(interpreter), JSON.stringify(serverOptions(places))];
  const [command, ...args] =
    places === undefined || containment?.namespaces === undefined
      ? server
      : [
          containment.namespaces.unshare,
          ...namespaceArgs(containment.namespaces.user),
          'sh',
          '-c',
          MOUNT_SCRIPT,
          'sh',
          places.scratch,
          ...server,
        ];
  const child = spawn(command!, args, {
    cwd: '/',
    // The mount script needs a PATH for `mount`; the server itself is started with -I and ignores it.
    env: containment?.namespaces === undefined ? {} : { PATH: SYSTEM_PATH },
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr = (stderr + text).slice(-STDERR_TAIL_BYTES);
  });
  const pid = child.pid;
  if (pid !== undefined) {
    running.add(pid);
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
    kill: async (runGroup, runUid) => {
      if (runGroup !== undefined) killRun(interpreter, runGroup, runUid, containment?.namespaces !== undefined);
      if (pid !== undefined) killGroup(pid);
      await exited;
    },
  };
}
