import { startBudget } from '../seam/budget.js';
import type { RuntimeHost } from '../seam/byte-store.js';
import {
  answerCallText,
  type BridgeLimits,
  BridgeWatch,
  bridgeLimitsOf,
  failureJson,
  namespaceShapes,
} from '../seam/calls.js';
import { parseJsonValue } from '../seam/json.js';
import { runMessages } from '../seam/messages.js';
import { runTimeoutMs } from '../seam/options.js';
import { OutputBudget } from '../seam/output.js';
import type { BindingNamespace, CodeRuntime, JsonValue, RunError, RunRequest, RunResult } from '../seam/types.js';
import { assertValidBindings } from '../seam/validate.js';
import { parseWorkerConfig, WORKER_DEFAULTS, type WorkerRuntimeConfig } from './config.js';
import { preparedProgram } from './prepared-program.js';
import { type GuestFrame, globalNames, type HostFrame, type RunFrame } from './protocol.js';
import { type WorkerEvent, type WorkerLease, WorkerPool, type WorkerPoolOptions } from './worker-pool.js';

/**
 * The TypeScript backend: programs run in warm worker threads, each program in a fresh realm of its own
 * (see guest.ts), so no program-visible state survives into the next run. A worker that a run leaves in
 * doubt (timeout, abort, output cap, a fault, or no idle report after the run) is terminated and a
 * pre-booted spare takes over.
 */
export function createWorkerRuntime(
  config: WorkerRuntimeConfig = {},
  pool: Omit<WorkerPoolOptions, 'heapMb'> = {},
  host: RuntimeHost = {},
): CodeRuntime {
  return new WorkerRuntime(parseWorkerConfig(config), pool, host);
}

class WorkerRuntime implements CodeRuntime {
  readonly language = 'typescript';
  readonly isolation = 'worker-thread';
  readonly #timeoutMs: number;
  readonly #heapMb: number;
  readonly #outputLimitBytes: number;
  readonly #bridge: BridgeLimits;
  readonly #pool: WorkerPool;
  readonly #host: RuntimeHost;
  #disposed = false;

  constructor(config: WorkerRuntimeConfig, pool: Omit<WorkerPoolOptions, 'heapMb'>, host: RuntimeHost) {
    this.#host = host;
    this.#timeoutMs = config.timeoutMs ?? WORKER_DEFAULTS.timeoutMs;
    this.#heapMb = config.heapMb ?? WORKER_DEFAULTS.heapMb;
    this.#outputLimitBytes = config.outputLimitBytes ?? WORKER_DEFAULTS.outputLimitBytes;
    this.#bridge = bridgeLimitsOf(config);
    this.#pool = new WorkerPool({ ...pool, heapMb: this.#heapMb });
  }

  async run(request: RunRequest): Promise<RunResult> {
    if (this.#disposed) throw runMessages.disposed('TypeScript worker');
    assertValidBindings(request.bindings);
    const timeoutMs = runTimeoutMs(request.timeoutMs, this.#timeoutMs);
    if (request.signal?.aborted) return { logs: [], error: runMessages.abortedBeforeStart() };

    const namespaces = namespaceShapes(request.bindings);
    const stripped = await preparedProgram(request.program, globalNames(namespaces), this.#host.preparedPrograms);
    if ('error' in stripped) return { logs: [], error: { kind: 'exception', ...stripped.error } };
    if (request.signal?.aborted) return { logs: [], error: runMessages.abortedBeforeStart() };
    if (this.#disposed) throw runMessages.disposed('TypeScript worker');

    return new RunSession(this.#pool, request.bindings, {
      timeoutMs,
      heapMb: this.#heapMb,
      outputLimitBytes: this.#outputLimitBytes,
      bridge: new BridgeWatch(this.#bridge),
      signal: request.signal,
    }).start({ type: 'run', code: stripped.code, namespaces, outputLimitBytes: this.#outputLimitBytes });
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    await this.#pool.dispose();
  }
}

interface SessionLimits {
  timeoutMs: number;
  heapMb: number;
  outputLimitBytes: number;
  bridge: BridgeWatch;
  signal: AbortSignal | undefined;
}

/**
 * One run on one leased worker: relays tool calls, collects logs, enforces the limits, then gives the worker
 * back. The time budget counts the program's execution only: on a worker that is still booting it starts
 * when the worker reports ready (the pool bounds the boot itself).
 */
class RunSession {
  readonly #logs: string[] = [];
  readonly #output: OutputBudget;
  #settled = false;
  #resolve!: (result: RunResult) => void;
  #cancelBudget: (() => void) | undefined;
  #lease!: WorkerLease;
  readonly #onAbort = (): void => this.#finish(runMessages.aborted());

  constructor(
    private readonly pool: WorkerPool,
    private readonly bindings: readonly BindingNamespace[],
    private readonly limits: SessionLimits,
  ) {
    this.#output = new OutputBudget(limits.outputLimitBytes);
  }

  start(frame: HostFrame): Promise<RunResult> {
    const done = new Promise<RunResult>((resolve) => (this.#resolve = resolve));
    this.#lease = this.pool.acquire((event) => this.#onEvent(event));
    this.limits.signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (this.#lease.ready) this.#startBudget();
    this.#lease.post(frame);
    return done;
  }

  #startBudget(): void {
    if (this.#settled || this.#cancelBudget !== undefined) return;
    this.#cancelBudget = startBudget(this.limits.timeoutMs, () =>
      this.#finish(runMessages.timeout(this.limits.timeoutMs)),
    );
  }

  #onEvent(event: WorkerEvent): void {
    switch (event.type) {
      case 'ready':
        this.#startBudget();
        return;
      case 'boot-timeout':
        this.#finish({
          kind: 'worker-exit',
          message: `the worker did not finish booting within ${event.bootTimeoutMs} ms, so the program never ran`,
        });
        return;
      case 'frame':
        this.#onFrame(event.frame);
        return;
      case 'error':
        this.#finish({
          kind: 'worker-exit',
          message:
            event.error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? `the program ran out of memory (heap limit ${this.limits.heapMb} MB)`
              : `the worker failed: ${event.error.message}`,
        });
        return;
      case 'exit':
        this.#finish({
          kind: 'worker-exit',
          message: `the worker exited (code ${event.code}) before the program finished`,
        });
        return;
    }
  }

  /**
   * Ends the run once. `reusable` says the worker ended the run itself and may serve again; every other
   * ending terminates it.
   */
  #finish(error: RunError | undefined, value?: JsonValue, reusable = false): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#cancelBudget?.();
    this.limits.signal?.removeEventListener('abort', this.#onAbort);
    this.#lease.release(reusable);
    this.#resolve(
      this.limits.bridge.settle(
        error === undefined ? { value: value ?? null, logs: this.#logs } : { logs: this.#logs, error },
      ),
    );
  }

  /** Counts output the host receives; the worker counts too, but the host does not rely on it. */
  #spend(fits: boolean): boolean {
    if (!fits) this.#finish(runMessages.outputLimit(this.limits.outputLimitBytes));
    return fits;
  }

  #onFrame(frame: RunFrame): void {
    if (this.#settled) return;
    switch (frame.type) {
      case 'log':
        if (this.#spend(this.#output.log(frame.line))) this.#logs.push(frame.line);
        return;
      case 'call':
        void this.#call(frame);
        return;
      case 'result': {
        if (!this.#spend(this.#output.value(frame.value))) return;
        let value: JsonValue;
        try {
          value = parseJsonValue(frame.value, 'the returned value');
        } catch (error) {
          this.#finish({ kind: 'invalid-output', message: (error as Error).message });
          return;
        }
        this.#finish(undefined, value, true);
        return;
      }
      case 'failure':
        // After its output cap the program may still be running: only a finished program leaves a reusable worker.
        this.#finish(
          { kind: frame.kind, message: frame.message, ...(frame.name === undefined ? {} : { name: frame.name }) },
          undefined,
          frame.kind !== 'output-limit',
        );
        return;
    }
  }

  async #call(frame: Extract<GuestFrame, { type: 'call' }>): Promise<void> {
    const answer = await answerCallText(this.bindings, frame.namespace, frame.member, frame.args, this.limits.bridge);
    if (this.#settled) return;
    this.#lease.post(
      'okJson' in answer
        ? { type: 'reply', id: frame.id, ok: answer.okJson }
        : { type: 'reply', id: frame.id, failure: failureJson(answer) },
    );
  }
}
