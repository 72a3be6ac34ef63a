import { JsonValueError, parseJsonValue, toJsonText } from '../seam/json.js';
import { assertValidBindings } from '../seam/validate.js';
import type { BindingNamespace, CodeRuntime, JsonValue, RunError, RunRequest, RunResult } from '../seam/types.js';
import { WORKER_DEFAULTS, parseWorkerConfig, type WorkerRuntimeConfig } from './config.js';
import { type GuestFrame, type HostFrame, type NamespaceShape, type RunFrame, globalNames } from './protocol.js';
import { stripTypes } from './strip-types.js';
import { type WorkerEvent, type WorkerLease, WorkerPool, type WorkerPoolOptions } from './worker-pool.js';

/**
 * The TypeScript backend: programs run in warm worker threads, each program in a fresh realm of its own
 * (see guest.ts), so no program-visible state survives into the next run. A worker that a run leaves in
 * doubt (timeout, abort, output cap, a fault, or no idle report after the run) is terminated and a
 * pre-booted spare takes over.
 */
export function createWorkerRuntime(config: WorkerRuntimeConfig = {}, pool: Omit<WorkerPoolOptions, 'heapMb'> = {}): CodeRuntime {
  return new WorkerRuntime(parseWorkerConfig(config), pool);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

class WorkerRuntime implements CodeRuntime {
  readonly language = 'typescript';
  readonly isolation = 'worker-thread';
  readonly #timeoutMs: number;
  readonly #heapMb: number;
  readonly #outputLimitBytes: number;
  readonly #pool: WorkerPool;
  #disposed = false;

  constructor(config: WorkerRuntimeConfig, pool: Omit<WorkerPoolOptions, 'heapMb'>) {
    this.#timeoutMs = config.timeoutMs ?? WORKER_DEFAULTS.timeoutMs;
    this.#heapMb = config.heapMb ?? WORKER_DEFAULTS.heapMb;
    this.#outputLimitBytes = config.outputLimitBytes ?? WORKER_DEFAULTS.outputLimitBytes;
    this.#pool = new WorkerPool({ ...pool, heapMb: this.#heapMb });
  }

  async run(request: RunRequest): Promise<RunResult> {
    if (this.#disposed) throw new Error('the TypeScript worker runtime was disposed');
    assertValidBindings(request.bindings);
    if (request.signal?.aborted) return { logs: [], error: { kind: 'abort', message: 'the run was aborted before it started' } };

    const namespaces: NamespaceShape[] = request.bindings.map((binding) => ({
      name: binding.name,
      members: [...binding.functions.keys()],
      ...(binding.errorClass === undefined ? {} : { errorClass: { ...binding.errorClass } }),
    }));
    const stripped = await stripTypes(request.program, globalNames(namespaces));
    if ('error' in stripped) return { logs: [], error: { kind: 'exception', ...stripped.error } };
    if (request.signal?.aborted) return { logs: [], error: { kind: 'abort', message: 'the run was aborted before it started' } };
    if (this.#disposed) throw new Error('the TypeScript worker runtime was disposed');

    return new RunSession(this.#pool, request.bindings, {
      timeoutMs: request.timeoutMs ?? this.#timeoutMs,
      heapMb: this.#heapMb,
      outputLimitBytes: this.#outputLimitBytes,
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
  signal: AbortSignal | undefined;
}

/**
 * One run on one leased worker: relays tool calls, collects logs, enforces the limits, then gives the worker
 * back. The time budget counts the program's execution only: on a worker that is still booting it starts
 * when the worker reports ready (the pool bounds the boot itself).
 */
class RunSession {
  readonly #logs: string[] = [];
  #outputBytes = 0;
  #settled = false;
  #resolve!: (result: RunResult) => void;
  #timer: NodeJS.Timeout | undefined;
  #lease!: WorkerLease;
  readonly #onAbort = (): void => this.#finish({ kind: 'abort', message: 'the run was aborted' });

  constructor(
    private readonly pool: WorkerPool,
    private readonly bindings: readonly BindingNamespace[],
    private readonly limits: SessionLimits,
  ) {}

  start(frame: HostFrame): Promise<RunResult> {
    const done = new Promise<RunResult>((resolve) => (this.#resolve = resolve));
    this.#lease = this.pool.acquire((event) => this.#onEvent(event));
    this.limits.signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (this.#lease.ready) this.#startBudget();
    this.#lease.post(frame);
    return done;
  }

  #startBudget(): void {
    if (this.#settled || this.#timer !== undefined) return;
    this.#timer = setTimeout(
      () => this.#finish({ kind: 'timeout', message: `the program ran longer than its time budget of ${this.limits.timeoutMs} ms` }),
      this.limits.timeoutMs,
    );
  }

  #onEvent(event: WorkerEvent): void {
    switch (event.type) {
      case 'ready':
        this.#startBudget();
        return;
      case 'boot-timeout':
        this.#finish({ kind: 'worker-exit', message: `the worker did not finish booting within ${event.bootTimeoutMs} ms, so the program never ran` });
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
        this.#finish({ kind: 'worker-exit', message: `the worker exited (code ${event.code}) before the program finished` });
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
    clearTimeout(this.#timer);
    this.limits.signal?.removeEventListener('abort', this.#onAbort);
    this.#lease.release(reusable);
    this.#resolve(error === undefined ? { value: value ?? null, logs: this.#logs } : { logs: this.#logs, error });
  }

  /** Counts output the host receives; the worker counts too, but the host does not rely on it. */
  #spend(bytes: number): boolean {
    this.#outputBytes += bytes;
    if (this.#outputBytes <= this.limits.outputLimitBytes) return true;
    this.#finish({ kind: 'output-limit', message: `the program's output exceeded the limit of ${this.limits.outputLimitBytes} bytes` });
    return false;
  }

  #onFrame(frame: RunFrame): void {
    if (this.#settled) return;
    switch (frame.type) {
      case 'log':
        if (this.#spend(Buffer.byteLength(frame.line) + 1)) this.#logs.push(frame.line);
        return;
      case 'call':
        void this.#call(frame);
        return;
      case 'result': {
        if (!this.#spend(Buffer.byteLength(frame.value))) return;
        let value: JsonValue;
        try {
          value = parseJsonValue(frame.value, 'the returned value');
        } catch (error) {
          this.#finish({ kind: 'invalid-output', message: errorMessage(error) });
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
    const reply = (answer: { ok: string } | { error: string }): void => {
      if (!this.#settled) this.#lease.post({ type: 'reply', id: frame.id, ...answer } satisfies HostFrame);
    };
    const binding = this.bindings.find((candidate) => candidate.name === frame.namespace);
    const fn = binding?.functions.get(frame.member);
    if (fn === undefined) {
      reply({ error: `${frame.namespace} has no member ${JSON.stringify(frame.member)}` });
      return;
    }
    const label = `${frame.namespace}[${JSON.stringify(frame.member)}]`;
    let args: JsonValue;
    try {
      args = parseJsonValue(frame.args, `the arguments of ${label}`);
    } catch (error) {
      reply({ error: errorMessage(error) });
      return;
    }
    try {
      const result = await fn(args);
      reply({ ok: toJsonText(result, `the result of ${label}`) });
    } catch (error) {
      // A result that is not JSON is the host's fault, but the program still deserves a failed call.
      reply({ error: error instanceof JsonValueError ? `the host answered with a value that is not JSON: ${error.message}` : errorMessage(error) });
    }
  }
}
