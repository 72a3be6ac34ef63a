import { Worker } from 'node:worker_threads';
import { builtModule } from '../seam/package-root.js';
import { type HostFrame, type RunFrame, readGuestFrame } from './protocol.js';

/** What a run hears from the worker it holds. */
export type WorkerEvent =
  /** The worker has booted; sent once, and only if it was not ready when leased. */
  | { type: 'ready' }
  /** The worker did not boot within its deadline; it is being terminated. */
  | { type: 'boot-timeout'; bootTimeoutMs: number }
  | { type: 'frame'; frame: RunFrame }
  | { type: 'error'; error: Error & { code?: string } }
  | { type: 'exit'; code: number };

/** A worker held by one run. */
export interface WorkerLease {
  /** Whether the worker has booted; if not, a `ready` or `boot-timeout` event follows. */
  readonly ready: boolean;
  post(frame: HostFrame): void;
  /**
   * Gives the worker back. `reusable` only when the worker itself ended the run (its result or its own
   * failure frame); anything else (timeout, abort, output cap, a fault) terminates it. A reusable worker
   * serves again only after it reports idle, within SETTLE_MS.
   */
  release(reusable: boolean): void;
}

export interface WorkerPoolOptions {
  heapMb: number;
  /** How long a new worker may take to report ready before it is terminated (default BOOT_TIMEOUT_MS). */
  bootTimeoutMs?: number;
  /** Delays the end of every worker's boot by this much: only for tests of slow boots. */
  bootDelayMs?: number;
}

/** A new worker thread running guest.ts, with its output drained. */
export function spawnGuestWorker(heapMb: number, bootDelayMs = 0): Worker {
  const worker = new Worker(builtModule('runtimes/worker/guest.ts'), {
    workerData: { bootDelayMs },
    // The worker sees an empty environment and none of the host's flags; the one flag it needs makes
    // `import()` inside a program's context reach the worker's refusing hook (see guest.ts).
    env: {},
    argv: [],
    execArgv: ['--experimental-vm-modules'],
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(32, heapMb / 4) },
  });
  worker.stdout.resume();
  worker.stderr.resume();
  return worker;
}

/** Booting takes well under a second on an idle machine and seconds under load; past this, it is stuck. */
const BOOT_TIMEOUT_MS = 60_000;
/** How long a worker may take to report idle after a run before it is presumed stuck and terminated. */
const SETTLE_MS = 1_000;
/** Idle workers kept beyond this many are terminated. */
const MAX_IDLE = 2;

interface PooledWorker {
  readonly worker: Worker;
  state: 'idle' | 'busy' | 'settling';
  /** Set once the worker reports ready; until then it may still be loading. */
  ready: boolean;
  onEvent: ((event: WorkerEvent) => void) | undefined;
  bootTimer: NodeJS.Timeout | undefined;
  settleTimer: NodeJS.Timeout | undefined;
}

/**
 * Warm worker threads for the TypeScript runtime. A run takes an idle worker (a ready one first, the most
 * recently used of those) and a spare is booted whenever none is idle or settling, so a run after a
 * replaced worker usually need not wait for a boot. When it must (the spare is still booting), the lease
 * says so, and the run's time budget starts only once the worker reports ready.
 */
export class WorkerPool {
  readonly #idle: PooledWorker[] = [];
  readonly #settling = new Set<PooledWorker>();
  readonly #all = new Set<PooledWorker>();

  constructor(private readonly options: WorkerPoolOptions) {}

  acquire(onEvent: (event: WorkerEvent) => void): WorkerLease {
    const pooled = this.#takeIdle() ?? this.#spawn();
    pooled.state = 'busy';
    pooled.onEvent = onEvent;
    pooled.worker.ref();
    if (this.#idle.length === 0 && this.#settling.size === 0) this.#idle.push(this.#spawn());
    let released = false;
    return {
      get ready() {
        return pooled.ready;
      },
      post: (frame) => pooled.worker.postMessage(frame),
      release: (reusable) => {
        if (released) return;
        released = true;
        pooled.onEvent = undefined;
        if (!reusable || !this.#all.has(pooled)) {
          this.#terminate(pooled);
          return;
        }
        pooled.state = 'settling';
        pooled.worker.unref();
        this.#settling.add(pooled);
        pooled.settleTimer = setTimeout(() => this.#terminate(pooled), SETTLE_MS);
        pooled.settleTimer.unref();
      },
    };
  }

  async dispose(): Promise<void> {
    const workers = [...this.#all];
    for (const pooled of workers) this.#forget(pooled);
    // A worker that was unref'd once does not reliably hold the event loop open while it terminates
    // (seen on Node 20: the process ended with the termination still awaited); a timer holds it instead.
    const holdOpen = setInterval(() => {}, 60_000);
    try {
      await Promise.all(workers.map((pooled) => pooled.worker.terminate()));
    } finally {
      clearInterval(holdOpen);
    }
  }

  /** A ready idle worker (the most recently used), else the spare that has been booting longest. */
  #takeIdle(): PooledWorker | undefined {
    const ready = this.#idle.findLastIndex((pooled) => pooled.ready);
    return this.#idle.splice(ready === -1 ? 0 : ready, 1)[0];
  }

  #spawn(): PooledWorker {
    const worker = spawnGuestWorker(this.options.heapMb, this.options.bootDelayMs);
    worker.unref();
    const pooled: PooledWorker = {
      worker,
      state: 'idle',
      ready: false,
      onEvent: undefined,
      bootTimer: undefined,
      settleTimer: undefined,
    };
    const bootTimeoutMs = this.options.bootTimeoutMs ?? BOOT_TIMEOUT_MS;
    pooled.bootTimer = setTimeout(() => {
      pooled.onEvent?.({ type: 'boot-timeout', bootTimeoutMs });
      this.#terminate(pooled);
    }, bootTimeoutMs);
    pooled.bootTimer.unref();
    worker.on('message', (raw: unknown) => {
      const frame = readGuestFrame(raw);
      if (frame === undefined) return;
      if (frame.type === 'idle') this.#onIdle(pooled);
      else if (frame.type === 'ready') this.#onReady(pooled);
      else pooled.onEvent?.({ type: 'frame', frame });
    });
    worker.on('error', (error: Error & { code?: string }) => pooled.onEvent?.({ type: 'error', error }));
    worker.on('exit', (code) => {
      this.#forget(pooled);
      pooled.onEvent?.({ type: 'exit', code });
    });
    this.#all.add(pooled);
    return pooled;
  }

  #onReady(pooled: PooledWorker): void {
    if (pooled.ready) return;
    pooled.ready = true;
    clearTimeout(pooled.bootTimer);
    pooled.onEvent?.({ type: 'ready' });
  }

  #onIdle(pooled: PooledWorker): void {
    if (pooled.state !== 'settling') return;
    clearTimeout(pooled.settleTimer);
    this.#settling.delete(pooled);
    if (this.#idle.length >= MAX_IDLE) {
      this.#terminate(pooled);
      return;
    }
    pooled.state = 'idle';
    pooled.worker.unref();
    this.#idle.push(pooled);
  }

  #forget(pooled: PooledWorker): void {
    clearTimeout(pooled.bootTimer);
    clearTimeout(pooled.settleTimer);
    this.#all.delete(pooled);
    this.#settling.delete(pooled);
    const index = this.#idle.indexOf(pooled);
    if (index !== -1) this.#idle.splice(index, 1);
  }

  #terminate(pooled: PooledWorker): void {
    this.#forget(pooled);
    void pooled.worker.terminate();
  }
}
