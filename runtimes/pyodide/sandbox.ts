import { type SpawnOptions, spawnSync } from 'node:child_process';
import { onPath } from '../seam/executables.js';
import { inheritableDescriptors } from '../seam/inherited-descriptors.js';
import { type SandboxFiles, sandboxFiles, unreadableSandboxFiles } from './staging.js';

/**
 * How the Pyodide worker process is confined. A program in Pyodide reaches JavaScript (`import js`, the
 * `constructor` of any proxied function, dynamic import), so the boundary cannot be inside the JavaScript
 * realm: it is the process. The worker is a separate Node process that
 *   - runs under Node's permission model: it may read only the Pyodide package folder and its own
 *     modules; it may not write files, start processes or worker threads, load addons, use WASI or the
 *     inspector;
 *   - sees an empty environment and runs in `/`, and holds no descriptor above 2 that the host inherited
 *     (a CI shell's `exec 200>>file`): the worker closes them before anything else;
 *   - runs as the unprivileged user nobody (65534) when the host is root, so the OS refuses what the
 *     permission model might let through;
 *   - gets a network namespace of its own with no interface up (util-linux `unshare`) where one can be
 *     made: Node 20's permission model does not cover the network;
 *   - is killed outright (SIGKILL) on timeout, abort, fatal errors and disposal, and when the host exits;
 *     where util-linux `setpriv` works, the kernel also kills it when the host itself is killed.
 * Not covered: the network where no namespace can be made (see `sandboxNetwork()`), signals to other
 * processes of the same user, and memory allocated from JavaScript (the WebAssembly heap cap binds Python,
 * not a program that reaches JavaScript; the worker's JS heap has its own cap).
 */

/** The account the worker runs as when the host is root. */
export const UNPRIVILEGED_IDS = { uid: 65534, gid: 65534 } as const;

/** JS heap of the worker process; Python's heap lives in WebAssembly memory, capped separately. */
const WORKER_HEAP_MB = 256;

/**
 * How much WebAssembly a function runs (V8's rough count of bytes executed) before V8 compiles it again with
 * its optimizing compiler: a hundred times the default of Node 20's V8 (1,800,000; later V8 releases start
 * higher, still well below this). With that default, the few hundred milliseconds of a boot from a memory
 * snapshot already hand the interpreter's hottest functions to the optimizing compiler: about a fifth of the
 * boot's CPU, spent on code the gate's short programs barely run (`npm run bench -- pyodide-boot` measures
 * both). A program that computes for longer gets them optimized a fraction of a second later.
 */
export const WASM_TIERING_BUDGET = 180_000_000;

/** A command that starts the worker process inside the sandbox. */
export interface SandboxLaunch {
  command: string;
  args: string[];
  options: SpawnOptions;
  files: SandboxFiles;
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** How the worker is cut off from the network, or why it is not. */
export type SandboxNetwork =
  | { isolated: true; command: string; args: string[]; dropsUser: boolean }
  | { isolated: false; reason: string };

let network: SandboxNetwork | undefined;

/**
 * A network namespace for the worker, through util-linux `unshare`: as root, `unshare --net` that then
 * switches to nobody; otherwise a user namespace (`--user --map-current-user --net`), where the kernel
 * allows one. Tried once per host process with `node --version` (it execs node as the worker's user would,
 * without starting a JavaScript engine: a tenth of the CPU of `node -e ""`).
 */
export function sandboxNetwork(): SandboxNetwork {
  if (network !== undefined) return network;
  const unshare = onPath('unshare');
  if (unshare === undefined) {
    network = { isolated: false, reason: 'util-linux unshare is not on PATH (apt-get install util-linux)' };
    return network;
  }
  const root = isRoot();
  const args = root
    ? ['--net', '--setuid', String(UNPRIVILEGED_IDS.uid), '--setgid', String(UNPRIVILEGED_IDS.gid), '--']
    : ['--user', '--map-current-user', '--net', '--'];
  const trial = spawnSync(unshare, [...args, process.execPath, '--version'], {
    cwd: '/',
    env: {},
    encoding: 'utf8',
    timeout: 10_000,
  });
  network =
    trial.status === 0
      ? { isolated: true, command: unshare, args, dropsUser: root }
      : {
          isolated: false,
          reason: `\`${unshare} ${args.join(' ')}\` failed here (${(trial.stderr ?? '').trim() || trial.error?.message || `status ${trial.status}`})`,
        };
  return network;
}

let deathSignal: string[] | undefined;

/**
 * `setpriv --pdeathsig KILL --` (util-linux) before node, where it works: the kernel kills the worker when
 * the host dies, even when the host is killed outright and its exit hook never runs. It comes after any
 * switch of user, which would clear the setting.
 */
export function dieWithHost(): string[] {
  if (deathSignal !== undefined) return deathSignal;
  const setpriv = onPath('setpriv');
  const prefix = setpriv === undefined ? [] : [setpriv, '--pdeathsig', 'KILL', '--'];
  const works =
    prefix.length > 0 &&
    spawnSync(prefix[0]!, [...prefix.slice(1), process.execPath, '--version'], { cwd: '/', env: {}, stdio: 'ignore' })
      .status === 0;
  deathSignal = works ? prefix : [];
  return deathSignal;
}

/**
 * Why no Pyodide worker can start on this machine, or undefined when one can: asked before a run, so a gate
 * says it once, as the runtime's availability, instead of through every program and check that boots one.
 */
export function pyodideUnavailable(packageDir: string): string | undefined {
  return unreadableSandboxFiles(packageDir, { otherUser: isRoot() });
}

/**
 * The flag that turns on Node's permission model, as the running Node spells it: Node 20 knows only
 * `--experimental-permission`, 22 both, 24 and later only `--permission` (the old spelling is a bad option there).
 */
export function permissionFlag(flags: ReadonlySet<string> = process.allowedNodeEnvironmentFlags): string {
  return flags.has('--permission') ? '--permission' : '--experimental-permission';
}

/** The command and options that start one worker process for the Pyodide package in `packageDir`. */
export function sandboxLaunch(packageDir: string): SandboxLaunch {
  const files = sandboxFiles(packageDir, { otherUser: isRoot() });
  const nodeArgs = [
    permissionFlag(),
    ...files.readable.map((path) => `--allow-fs-read=${path}`),
    // The permission model is experimental in Node 20 and says so on every start.
    '--disable-warning=ExperimentalWarning',
    `--max-old-space-size=${WORKER_HEAP_MB}`,
    `--wasm-tiering-budget=${WASM_TIERING_BUDGET}`,
    files.entry,
    // What the host's caller left open reaches the worker too; the worker closes these numbers first.
    inheritableDescriptors().join(','),
  ];
  const isolation = sandboxNetwork();
  const options: SpawnOptions = {
    cwd: '/',
    env: {},
    // Descriptor 3 carries the boot's memory snapshot (SNAPSHOT_FD).
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    // `unshare` needs root to make the namespace and switches to nobody itself before it starts node.
    ...(isRoot() && !(isolation.isolated && isolation.dropsUser) ? UNPRIVILEGED_IDS : {}),
  };
  // `unshare` and `setpriv` exec what follows in their own process: the pid the host kills is the worker's.
  const [command, ...args] = [
    ...(isolation.isolated ? [isolation.command, ...isolation.args] : []),
    ...dieWithHost(),
    process.execPath,
    ...nodeArgs,
  ];
  return { command: command!, args, options, files };
}
