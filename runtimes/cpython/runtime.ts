import { chmod, rm } from 'node:fs/promises';
import type { RuntimeHost } from '../seam/byte-store.js';
import { bridgeLimitsOf } from '../seam/calls.js';
import { containerUnavailable } from '../seam/docker-engine.js';
import { runMessages } from '../seam/messages.js';
import { runTimeoutMs } from '../seam/options.js';
import { ownedTempDir } from '../seam/owned-temp-dir.js';
import { RunQueue } from '../seam/run-queue.js';
import type { CodeRuntime, RunRequest, RunResult } from '../seam/types.js';
import { assertValidBindings } from '../seam/validate.js';
import { type CpythonRuntimeConfig, parseCpythonConfig } from './config.js';
import { RuntimeContainerHost } from './container-launcher.js';
import { GuestServer, type GuestTransport, type RunSettings } from './guest-server.js';
import { FLOOR_IMAGE } from './images.js';
import { makeCgroupFolder, removeCgroupFolder } from './memory-cgroup.js';
import {
  launchProcessGuest,
  processContainment,
  RUN_PROCESS_LIMIT,
  type RunPlaces,
  resolveInterpreter,
} from './process-launcher.js';
import { RunChannelListener } from './run-channel.js';

export const CPYTHON_DEFAULTS = {
  python: 'python3',
  image: FLOOR_IMAGE,
  timeoutMs: 30_000,
  memoryMb: 512,
  diskMb: 256,
  outputLimitBytes: 1_000_000,
  fallback: 'process',
} as const;

/** A CPython code runtime; `notice` says in one sentence what was used when it is not what was asked. */
export interface CpythonRuntime extends CodeRuntime {
  readonly language: 'python';
  readonly isolation: 'process' | 'container';
  readonly notice?: string;
  /** The guest interpreter's version (`3.11.2`), known after the first run. */
  readonly pythonVersion?: string;
}

// Only a start that hangs reaches these: a healthy process start has missed 15 s on a machine at load 18.
const STARTUP_TIMEOUT_MS = { process: 60_000, container: 60_000 } as const;
const MIN_PYTHON = [3, 9] as const;

class GuestBackedRuntime implements CpythonRuntime {
  readonly language = 'python' as const;
  private server: Promise<GuestServer> | undefined;
  private readonly queue = new RunQueue();
  private disposal: Promise<void> | undefined;
  pythonVersion: string | undefined;

  constructor(
    readonly isolation: 'process' | 'container',
    private readonly launch: () => Promise<GuestTransport>,
    private readonly settings: RunSettings,
    private readonly release: () => Promise<void>,
    readonly notice?: string,
  ) {}

  /**
   * Starts the guest server now (a run would start it on demand): a host that starts its runtimes early
   * (a gate's prewarm) has the interpreter, its sandbox and the guest module ready before the first run.
   * Each run still forks a fresh child of it. A failure is left to the first run, which reports it.
   */
  async start(): Promise<void> {
    if (this.disposed) return;
    await this.liveServer().catch(() => undefined);
  }

  /** Runs are queued: one guest server runs one program at a time. */
  async run(request: RunRequest): Promise<RunResult> {
    if (this.disposed) throw runMessages.disposed(`CPython ${this.isolation}`);
    assertValidBindings(request.bindings);
    const settings = { ...this.settings, timeoutMs: runTimeoutMs(request.timeoutMs, this.settings.timeoutMs) };
    return this.queue.run(() => this.runNow(request, settings));
  }

  private async runNow(request: RunRequest, settings: RunSettings): Promise<RunResult> {
    if (this.disposed) throw runMessages.disposed(`CPython ${this.isolation}`);
    if (request.signal?.aborted) return { logs: [], error: runMessages.abortedBeforeStart() };
    const server = await this.liveServer();
    return server.run(request.program, request.bindings, settings, request.signal);
  }

  /** The running guest server, started again after a run had to kill the previous one. */
  private async liveServer(): Promise<GuestServer> {
    const current = this.server === undefined ? undefined : await this.server.catch(() => undefined);
    if (current?.alive) return current;
    const what = `the CPython guest server (${this.isolation} isolation)`;
    const next = this.launch().then((transport) =>
      GuestServer.connect(transport, STARTUP_TIMEOUT_MS[this.isolation], what),
    );
    this.server = next;
    const server = await next;
    const [major = 0, minor = 0] = server.python.split('.').map(Number);
    if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
      await server.kill();
      throw new Error(
        `concord: the CPython runtime needs Python ${MIN_PYTHON.join('.')} or later; the interpreter is ${server.python}`,
      );
    }
    this.pythonVersion = server.python;
    return server;
  }

  private get disposed(): boolean {
    return this.disposal !== undefined;
  }

  /** Stops the guest server and releases its places, once: a second call resolves when the first is done. */
  dispose(): Promise<void> {
    this.disposal ??= this.disposeNow();
    return this.disposal;
  }

  private async disposeNow(): Promise<void> {
    const server = await this.server?.catch(() => undefined);
    // The places are released even when stopping the server fails: a long-lived host would keep them.
    try {
      await server?.kill();
    } finally {
      await this.release();
    }
  }
}

function settingsOf(config: CpythonRuntimeConfig, processes: number | undefined): RunSettings {
  const memoryMb = config.memoryMb ?? CPYTHON_DEFAULTS.memoryMb;
  return {
    timeoutMs: config.timeoutMs ?? CPYTHON_DEFAULTS.timeoutMs,
    outputLimitBytes: config.outputLimitBytes ?? CPYTHON_DEFAULTS.outputLimitBytes,
    limits: { memoryBytes: memoryMb * 1024 * 1024, ...(processes === undefined ? {} : { processes }) },
    diskMb: config.diskMb ?? CPYTHON_DEFAULTS.diskMb,
    bridge: bridgeLimitsOf(config),
  };
}

async function createProcessRuntime(config: CpythonRuntimeConfig, say: Say, notice?: string): Promise<CpythonRuntime> {
  const containment = processContainment();
  if (containment.notIsolated.length > 0 && notice === undefined) {
    notice = `CPython process runs are not isolated from: ${containment.notIsolated.join('; ')}`;
    say(notice);
  }
  const interpreter = await resolveInterpreter(config.python ?? CPYTHON_DEFAULTS.python, containment.runUids?.first);
  // RLIMIT_NPROC counts every process of a uid: a promise only a uid of the run's own can keep.
  const settings = settingsOf(config, containment.runUids === undefined ? undefined : RUN_PROCESS_LIMIT);
  // The runs' scratch folders live here; runs with uids of their own may pass through it, not list it.
  const scratch = ownedTempDir('concord-runs');
  let runChannel: RunChannelListener | undefined;
  let cgroup: string | undefined;
  const release = async (): Promise<void> => {
    await runChannel?.close();
    if (cgroup !== undefined) removeCgroupFolder(cgroup);
    await rm(scratch, { recursive: true, force: true });
  };
  try {
    await chmod(scratch, containment.runUids === undefined ? 0o700 : 0o711);
    // Runs reach the channel with the server's rights, before they drop to their own uid.
    runChannel = await RunChannelListener.open({});
    if (containment.memoryCgroup !== undefined) cgroup = makeCgroupFolder(containment.memoryCgroup);
  } catch (error) {
    // A runtime that never came to be leaves nothing behind, in a host that lives on as in one that exits.
    await release();
    throw error;
  }
  const channel = runChannel;
  const places: RunPlaces = {
    scratch,
    containment,
    diskBytes: (settings.diskMb ?? CPYTHON_DEFAULTS.diskMb) * 1024 * 1024,
    ...(cgroup === undefined ? {} : { memory: { cgroup, bytes: settings.limits.memoryBytes! } }),
  };
  return new GuestBackedRuntime(
    'process',
    () => Promise.resolve(launchProcessGuest(interpreter, places, channel)),
    settings,
    release,
    notice,
  );
}

/**
 * Says a fallback plainly: through the host, which says it once however many runtimes fall back alike, else on stderr.
 */
type Say = (notice: string) => void;

function sayThrough(host: RuntimeHost): Say {
  return (notice) => (host.notices ? host.notices.say(notice) : process.stderr.write(`concord: ${notice}\n`));
}

async function createContainerRuntime(config: CpythonRuntimeConfig, say: Say): Promise<CpythonRuntime> {
  const image = config.image ?? CPYTHON_DEFAULTS.image;
  const unavailable = await containerUnavailable(image);
  if (unavailable !== undefined) {
    const fallback = config.fallback ?? CPYTHON_DEFAULTS.fallback;
    if (fallback === 'error') throw new Error(`concord: the CPython container isolation cannot start: ${unavailable}`);
    const notice = `CPython runs in a local process, not a container: ${unavailable} (fallback: process)`;
    say(notice);
    return createProcessRuntime(config, say, notice);
  }
  const memoryMb = config.memoryMb ?? CPYTHON_DEFAULTS.memoryMb;
  const host = await RuntimeContainerHost.start(image, memoryMb);
  return new GuestBackedRuntime(
    'container',
    () => host.launchGuest(),
    settingsOf(config, undefined),
    () => host.dispose(),
  );
}

/** A CPython runtime for `config`; with the container isolation, starts the container once, up front. */
export async function createCpythonRuntime(raw: CpythonRuntimeConfig, host: RuntimeHost = {}): Promise<CpythonRuntime> {
  const config = parseCpythonConfig(raw);
  const say = sayThrough(host);
  return config.isolation === 'container' ? createContainerRuntime(config, say) : createProcessRuntime(config, say);
}
