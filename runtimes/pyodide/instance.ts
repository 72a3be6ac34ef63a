import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { onHostExit } from '../seam/host-exit.js';
import { LineSplitter } from '../seam/lines.js';
import { sourceAsset } from '../seam/package-root.js';
import { readCapped } from '../seam/read-capped.js';
import { type HostMessage, MAX_FRAME_BYTES, SNAPSHOT_FD, type SnapshotUse, type WorkerMessage } from './protocol.js';
import { type SandboxLaunch, sandboxLaunch } from './sandbox.js';
import { type ByteStore, holdSnapshotKey, snapshotKey, supportsSnapshots } from './snapshot.js';
import { type PyodidePythonVersion, pyodidePackageDir } from './versions.js';

/** What the booted interpreter reports about itself. */
export interface InterpreterVersions {
  /** CPython version, `major.minor.micro`. */
  python: string;
  /** `unicodedata.unidata_version`. */
  unicode: string;
}

/** Handlers for the frames of one run. */
export interface RunHandlers {
  onCall(callId: number, namespace: string, member: string, argsJson: string): void;
  onLog(line: string): void;
}

/** The worker process is gone (killed, crashed or fatally failed); nothing more will come from it. */
export class InstanceGoneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InstanceGoneError';
  }
}

const STDERR_TAIL_CHARS = 4_000;

/**
 * Worker processes still alive, killed when the host exits: a runaway program must not outlive it. A host
 * killed by a signal runs no exit hook; there the kernel's parent-death signal does it (see sandbox.ts).
 */
const living = new Set<ChildProcess>();

function killOnHostExit(child: ChildProcess): void {
  living.add(child);
  child.once('exit', () => living.delete(child));
}

onHostExit(() => {
  for (const alive of living) alive.kill('SIGKILL');
});

/** Read when each worker starts, so a worker never runs a guest older than the checkout. */
function readGuestSources(): { guestSource: string; driverSource: string } {
  return {
    // The guest module is shared with the CPython runtime.
    guestSource: readFileSync(sourceAsset('runtimes/cpython/guest/concord_guest.py'), 'utf8'),
    driverSource: readFileSync(sourceAsset('runtimes/pyodide/concord_pyodide.py'), 'utf8'),
  };
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isSnapshotUse(value: unknown): value is SnapshotUse {
  if (value === 'loaded' || value === 'made' || value === 'none') return true;
  return value !== null && typeof value === 'object' && typeof (value as { rejected?: unknown }).rejected === 'string';
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** Parses and checks the shape of a frame from the worker; anything else is dropped. */
function decodeWorkerMessage(line: string): WorkerMessage | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (raw === null || typeof raw !== 'object') return undefined;
  const message = raw as Record<string, unknown>;
  switch (message.type) {
    case 'ready':
      if (!isString(message.python) || !isString(message.unicode)) return undefined;
      if (message.snapshot !== undefined && !isSnapshotUse(message.snapshot)) return undefined;
      return {
        type: 'ready',
        python: message.python,
        unicode: message.unicode,
        ...(message.snapshot !== undefined ? { snapshot: message.snapshot as SnapshotUse } : {}),
      };
    case 'snapshot':
      return isCount(message.bytes) ? (message as WorkerMessage) : undefined;
    case 'call':
      return isCount(message.runId) &&
        isCount(message.callId) &&
        isString(message.namespace) &&
        isString(message.member) &&
        isString(message.argsJson)
        ? (message as WorkerMessage)
        : undefined;
    case 'log':
      return isCount(message.runId) && isString(message.line) ? (message as WorkerMessage) : undefined;
    case 'done':
      return isCount(message.runId) && isString(message.outcomeJson) && isCount(message.heapBytes)
        ? (message as WorkerMessage)
        : undefined;
    case 'compiled':
      return isCount(message.requestId) && isString(message.resultsJson) ? (message as WorkerMessage) : undefined;
    case 'fatal':
      return isString(message.message) ? (message as WorkerMessage) : undefined;
    default:
      return undefined;
  }
}

interface Pending<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

/** What a finished run sends back: the driver's outcome (JSON text) and the size the heap grew to. */
export interface RunOutcome {
  outcomeJson: string;
  heapBytes: number;
}

/**
 * One Pyodide interpreter in its own sandboxed worker process (see sandbox.ts). It boots as soon as it is
 * created; runs and compile requests are served one at a time by the worker. Killing the process is the
 * only way to stop a runaway program. Every frame from the worker is parsed and checked here; junk is
 * dropped, and a frame longer than MAX_FRAME_BYTES kills the worker.
 */
export class PyodideInstance {
  readonly ready: Promise<InterpreterVersions>;
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;
  private gone: InstanceGoneError | undefined;
  private stderrTail = '';
  private nextId = 0;
  /** Callers waiting on this instance (see hold): while any wait, it keeps the host alive. */
  private holders = 0;
  private readonly runs = new Map<number, Pending<RunOutcome> & { handlers: RunHandlers }>();
  private readonly compiles = new Map<number, Pending<string>>();
  private markReady!: (versions: InterpreterVersions) => void;
  private failBoot!: (error: Error) => void;
  /** Where this boot's snapshot comes from or goes to, and under which key (undefined: no snapshots). */
  private snapshots: { store: ByteStore; key: readonly string[]; sent: boolean; wanted: boolean } | undefined;
  private booted = false;
  /** Stopped by the host: a boot cut short this way says nothing about the snapshot it used. */
  private stopped = false;
  /** What the worker sent on its snapshot channel until it closed it; undefined past MAX_FRAME_BYTES. */
  private readonly snapshotReceived: Promise<Buffer | undefined>;
  /** Settles once the snapshot this boot made is in the store (or failed to get there); awaited by terminate(). */
  private snapshotKept: Promise<void> = Promise.resolve();
  /**
   * Lets the next boot of this release on the same store read the key (holdSnapshotKey): this one loaded, stored, or
   * gave up.
   */
  private releaseSnapshotKey: () => void = () => {};
  /** How the interpreter booted, once it is ready (`none`: this release or host keeps no snapshots). */
  snapshotUse: SnapshotUse = 'none';

  constructor(
    readonly version: PyodidePythonVersion,
    memoryLimitBytes: number,
    /** Where the boot's memory snapshot comes from and goes to (none: it boots afresh). */
    snapshots?: ByteStore,
    /** How the worker process is started (the sandbox; a benchmark compares it with variants of itself). */
    launchFor: (packageDir: string) => SandboxLaunch = sandboxLaunch,
  ) {
    this.ready = new Promise((resolve, reject) => {
      this.markReady = resolve;
      this.failBoot = reject;
    });
    // Nobody may be waiting yet; the failure still reaches whoever awaits `ready` later.
    this.ready.catch(() => {});
    const launch = launchFor(pyodidePackageDir(version));
    this.child = spawn(launch.command, launch.args, launch.options);
    killOnHostExit(this.child);
    this.exited = new Promise<void>((resolve) => {
      this.child.once('error', (error) => {
        const user = launch.options.uid === undefined ? '' : ` as uid ${launch.options.uid}`;
        this.die(`could not start the Pyodide worker process (${launch.command}${user}): ${error.message}`);
        resolve();
      });
      // 'close', not 'exit': by then stderr is read to its end, so the reason can quote it.
      this.child.once('close', (code, signal) => {
        this.die(`the Pyodide worker process exited with ${signal === null ? `code ${code}` : `signal ${signal}`}`);
        resolve();
      });
    });
    // The worker reads its files no more: copies made for it go with the last worker that used them.
    void this.exited.then(() => launch.files.release());
    const { stdin, stdout, stderr } = this.child;
    // A closed pipe surfaces as the process's exit; its error must not reach the host as an exception.
    for (const stream of [stdin, stdout, stderr, this.child.stdio[SNAPSHOT_FD]]) stream?.on('error', () => {});
    stderr?.setEncoding('utf8');
    stderr?.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    if (stdout) {
      // A frame past the cap kills the worker: nothing more it says is read.
      let oversized = false;
      const splitter = new LineSplitter(MAX_FRAME_BYTES, () => {
        oversized = true;
        this.die(`the Pyodide worker process sent a frame longer than ${MAX_FRAME_BYTES} bytes`);
        this.child.kill('SIGKILL');
      });
      stdout.on('data', (chunk: Buffer) => {
        if (oversized) return;
        for (const line of splitter.push(chunk)) if (!oversized) this.receive(line);
      });
    }
    const channel = this.child.stdio[SNAPSHOT_FD];
    this.snapshotReceived =
      channel instanceof Readable ? readCapped(channel, MAX_FRAME_BYTES) : Promise.resolve(undefined);
    const boot: HostMessage = {
      type: 'boot',
      packageDir: launch.files.packageDir,
      memoryLimitBytes,
      ...readGuestSources(),
    };
    const store = supportsSnapshots(version) ? snapshots : undefined;
    if (store === undefined) {
      this.post(boot);
      this.snapshotChannel()?.end();
    } else void this.bootWithSnapshot(boot, store, snapshotKey(version, pyodidePackageDir(version)));
    // An idle warm instance must not keep the host alive; callers hold it while they wait on it.
    this.setRef(false);
  }

  /**
   * Boots from the stored snapshot when there is one, and asks for one to keep when there is none (or it does not
   * load).
   */
  private async bootWithSnapshot(
    boot: HostMessage & { type: 'boot' },
    store: ByteStore,
    key: readonly string[],
  ): Promise<void> {
    await holdSnapshotKey(store, key, new Promise((release) => (this.releaseSnapshotKey = () => release())));
    if (this.gone !== undefined) return this.releaseSnapshotKey();
    const bytes = await store.read(key).catch(() => undefined);
    // Loading takes nothing from the store that another boot could not read at the same time.
    if (bytes !== undefined) this.releaseSnapshotKey();
    this.snapshots = { store, key, sent: bytes !== undefined, wanted: true };
    this.post({ ...boot, makeSnapshot: true, ...(bytes !== undefined ? { snapshotBytes: bytes.byteLength } : {}) });
    const channel = this.snapshotChannel();
    if (bytes !== undefined) channel?.write(bytes);
    channel?.end();
  }

  /** Keeps the snapshot the worker sent on its channel, when exactly as many bytes arrived as its frame says. */
  private async keepSnapshot(store: ByteStore, key: readonly string[], length: number): Promise<void> {
    const bytes = await this.snapshotReceived;
    if (bytes?.length === length) await store.write(key, bytes);
  }

  /** The worker's SNAPSHOT_FD, from our end; a closed pipe surfaces as the worker's exit. */
  private snapshotChannel(): Writable | undefined {
    const channel = this.child.stdio[SNAPSHOT_FD];
    return channel instanceof Writable ? channel : undefined;
  }

  /** True once the worker can no longer serve anything. */
  get dead(): boolean {
    return this.gone !== undefined;
  }

  /** Keeps the host alive while a caller waits on this instance; counted, so overlapping callers nest. */
  hold(): void {
    this.holders += 1;
    if (!this.dead && this.holders === 1) this.setRef(true);
  }

  release(): void {
    if (this.holders === 0) return;
    this.holders -= 1;
    if (!this.dead && this.holders === 0) this.setRef(false);
  }

  /** Runs one program; `done` rejects with InstanceGoneError when the worker dies first. */
  run(
    program: string,
    namespacesJson: string,
    outputLimitBytes: number,
    handlers: RunHandlers,
  ): { runId: number; done: Promise<RunOutcome> } {
    const runId = ++this.nextId;
    const done = new Promise<RunOutcome>((resolve, reject) => {
      if (this.gone !== undefined) return reject(this.gone);
      this.runs.set(runId, { resolve, reject, handlers });
      this.post({ type: 'run', runId, program, namespacesJson, outputLimitBytes });
    });
    return { runId, done };
  }

  /** Answers a tool call of a run that is still in progress. */
  reply(runId: number, callId: number, replyJson: string): void {
    if (this.runs.has(runId)) this.post({ type: 'reply', runId, callId, replyJson });
  }

  compile(sourcesJson: string): Promise<string> {
    const requestId = ++this.nextId;
    return new Promise<string>((resolve, reject) => {
      if (this.gone !== undefined) return reject(this.gone);
      this.compiles.set(requestId, { resolve, reject });
      this.post({ type: 'compile', requestId, sourcesJson });
    });
  }

  /**
   * Kills the worker process at once, whatever it is doing, and waits until it is gone and the snapshot its
   * boot made is stored: a boot that follows (the next compile, a runtime's first worker) loads it instead of
   * booting afresh and making another.
   */
  async terminate(): Promise<void> {
    this.stopped = true;
    this.die('the Pyodide worker process was stopped');
    // Whoever awaits the end keeps the host alive until the process is reaped.
    this.setRef(true);
    this.child.kill('SIGKILL');
    await this.exited;
    await this.snapshotKept;
  }

  private setRef(on: boolean): void {
    const { stdin, stdout, stderr } = this.child;
    // The snapshot channel closes once the worker has read it; a closed socket would only queue the call for a connect.
    const channel = this.child.stdio[SNAPSHOT_FD];
    for (const handle of [this.child, stdin, stdout, stderr, channel?.destroyed === false ? channel : null] as (Pick<
      Socket,
      'ref' | 'unref'
    > | null)[]) {
      if (on) handle?.ref();
      else handle?.unref();
    }
  }

  private post(message: HostMessage): void {
    if (this.gone === undefined) this.child.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  private receive(line: string): void {
    const message = decodeWorkerMessage(line);
    if (message === undefined) return;
    switch (message.type) {
      case 'ready':
        this.booted = true;
        this.snapshotUse = message.snapshot ?? 'none';
        // Still wanted: no snapshot came, and none will.
        if (this.snapshots?.wanted === true) this.releaseSnapshotKey();
        // A snapshot that did not load is forgotten, unless this boot made one to take its place (same key).
        if (typeof this.snapshotUse === 'object' && this.snapshots?.wanted === true)
          void this.snapshots.store.drop(this.snapshots.key).catch(() => {});
        this.markReady({ python: message.python, unicode: message.unicode });
        return;
      case 'snapshot':
        // Taken only while booting, once, and only when asked for: no program has run in the worker yet.
        if (this.booted || this.snapshots?.wanted !== true) return;
        this.snapshots.wanted = false;
        this.snapshotKept = this.keepSnapshot(this.snapshots.store, this.snapshots.key, message.bytes).catch(() => {});
        void this.snapshotKept.then(this.releaseSnapshotKey);
        return;
      case 'call':
        this.runs
          .get(message.runId)
          ?.handlers.onCall(message.callId, message.namespace, message.member, message.argsJson);
        return;
      case 'log':
        this.runs.get(message.runId)?.handlers.onLog(message.line);
        return;
      case 'done': {
        const run = this.runs.get(message.runId);
        this.runs.delete(message.runId);
        run?.resolve({ outcomeJson: message.outcomeJson, heapBytes: message.heapBytes });
        return;
      }
      case 'compiled': {
        const request = this.compiles.get(message.requestId);
        this.compiles.delete(message.requestId);
        request?.resolve(message.resultsJson);
        return;
      }
      case 'fatal':
        this.die(`the Pyodide interpreter failed: ${message.message}`);
        this.child.kill('SIGKILL');
        return;
    }
  }

  private die(reason: string): void {
    if (this.gone !== undefined) return;
    // A worker that died booting from a snapshot may have died of it: the next boot starts afresh.
    if (!this.booted && !this.stopped && this.snapshots?.sent === true)
      void this.snapshots.store.drop(this.snapshots.key).catch(() => {});
    // A snapshot it was making never comes: keeping one ends through snapshotKept.
    if (this.snapshots?.wanted !== false) this.releaseSnapshotKey();
    const tail = this.stderrTail.trim();
    this.gone = new InstanceGoneError(tail === '' ? reason : `${reason}. Its stderr ends with:\n${tail}`);
    this.failBoot(this.gone);
    for (const pending of [...this.runs.values(), ...this.compiles.values()]) pending.reject(this.gone);
    this.runs.clear();
    this.compiles.clear();
  }
}
