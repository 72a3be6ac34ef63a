import { startBudget } from '../seam/budget.js';
import {
  answerCallText,
  type BridgeLimits,
  BridgeWatch,
  bridgeLimitsOf,
  failureJson,
  namespaceShapes,
} from '../seam/calls.js';
import { toJsonText } from '../seam/json.js';
import { runMessages } from '../seam/messages.js';
import { runTimeoutMs } from '../seam/options.js';
import { OutputBudget } from '../seam/output.js';
import type { RuntimeHost } from '../seam/plugin.js';
import { readGuestResult } from '../seam/result.js';
import { RunQueue } from '../seam/run-queue.js';
import type { CodeRuntime, RunError, RunRequest, RunResult } from '../seam/types.js';
import { assertValidBindings } from '../seam/validate.js';
import { PYODIDE_DEFAULTS, type PyodideRuntimeConfig, parsePyodideConfig } from './config.js';
import { PyodideInstance, type RunOutcome } from './instance.js';
import type { PyodidePythonVersion } from './versions.js';

export interface PyodideRuntime extends CodeRuntime {
  readonly version: PyodidePythonVersion;
  /** Boots the interpreter now (runs do it on demand); resolves with what it reports about itself. */
  warm(): Promise<{ python: string; unicode: string }>;
}

type Ending =
  | { kind: 'done'; outcome: RunOutcome }
  | { kind: 'stopped'; error: RunError }
  | { kind: 'gone'; message: string };

interface DriverOutcome {
  result: string;
  outputExceeded: boolean;
  taint: string | null;
  /** Bytes the program wrote to its fds 1 and 2: not shown, but counted against the output cap. */
  writtenBytes: number;
}

function decodeDriverOutcome(text: string): DriverOutcome | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const { result, outputExceeded, taint, writtenBytes = 0 } = parsed as Record<string, unknown>;
  if (typeof result !== 'string' || typeof outputExceeded !== 'boolean') return undefined;
  if (taint !== null && typeof taint !== 'string') return undefined;
  if (!Number.isSafeInteger(writtenBytes) || (writtenBytes as number) < 0) return undefined;
  return { result, outputExceeded, taint, writtenBytes: writtenBytes as number };
}

/** The guest's `{"value"}` / `{"error"}` result text, validated and rebuilt as a RunResult part. */
function decodeGuestResult(text: string): ReturnType<typeof readGuestResult> & object {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      error: { kind: 'invalid-output', message: `the program result is not JSON text (${(error as Error).message})` },
    };
  }
  return (
    readGuestResult(parsed) ?? {
      error: { kind: 'invalid-output', message: 'the Pyodide guest sent a result of an unknown shape' },
    }
  );
}

/**
 * CPython compiled to WebAssembly (Pyodide), in a sandboxed worker process (see sandbox.ts: a program that
 * reaches JavaScript is still inside it). One interpreter stays warm between runs; each run gets fresh
 * globals and a restored interpreter (see concord_pyodide.py). A run that times out, is aborted, kills the
 * interpreter or leaves state that cannot be undone costs the worker: its process is killed and a
 * replacement starts booting at once, so the next run finds it warm or nearly so.
 */
export function createPyodideRuntime(config: PyodideRuntimeConfig = {}, host: RuntimeHost = {}): PyodideRuntime {
  const limits = parsePyodideConfig(config);
  const workers = new PyodideWorkers(limits, host);
  const queue = new RunQueue();
  const timeoutMs = limits.timeoutMs ?? PYODIDE_DEFAULTS.timeoutMs;
  return {
    language: 'python',
    isolation: 'wasm',
    version: workers.version,
    warm: () => workers.warm(),
    async start() {
      // A boot that fails is reported by the first run, as without a start.
      await this.warm().catch(() => {});
    },
    async run(request) {
      if (workers.disposed) throw runMessages.disposed('Pyodide');
      assertValidBindings(request.bindings);
      const budget = runTimeoutMs(request.timeoutMs, timeoutMs);
      return queue.run(() => workers.run(request, budget));
    },
    dispose: () => workers.dispose(),
  };
}

/** The runtime's worker process: one warm at a time, replaced (and the next booting) whenever a run spends it. */
class PyodideWorkers {
  readonly version: PyodidePythonVersion;
  private readonly outputLimitBytes: number;
  private readonly memoryLimitBytes: number;
  private readonly bridge: BridgeLimits;
  private instance: PyodideInstance | undefined;
  disposed = false;
  /** A worker that cannot boot will not boot next time either: later runs fail fast with the same error. */
  private bootFailure: Error | undefined;

  constructor(
    config: PyodideRuntimeConfig,
    private readonly host: RuntimeHost,
  ) {
    this.version = config.version ?? PYODIDE_DEFAULTS.version;
    this.outputLimitBytes = config.outputLimitBytes ?? PYODIDE_DEFAULTS.outputLimitBytes;
    this.memoryLimitBytes = config.memoryLimitBytes ?? PYODIDE_DEFAULTS.memoryLimitBytes;
    this.bridge = bridgeLimitsOf(config);
  }

  private current(): PyodideInstance {
    if (this.instance === undefined || this.instance.dead)
      this.instance = new PyodideInstance(this.version, this.memoryLimitBytes, this.host.snapshots);
    return this.instance;
  }

  /** Kills the worker process and starts booting its successor. */
  private replace(spent: PyodideInstance): void {
    if (this.instance === spent) this.instance = undefined;
    void spent.terminate();
    if (!this.disposed) this.current();
  }

  async warm(): Promise<{ python: string; unicode: string }> {
    if (this.disposed) throw runMessages.disposed('Pyodide');
    const worker = this.current();
    worker.hold();
    try {
      return await worker.ready;
    } finally {
      worker.release();
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const last = this.instance;
    this.instance = undefined;
    await last?.terminate();
  }

  async run(request: RunRequest, budget: number): Promise<RunResult> {
    if (this.disposed) throw runMessages.disposed('Pyodide');
    if (request.signal?.aborted) return { logs: [], error: runMessages.abortedBeforeStart() };
    if (this.bootFailure !== undefined) throw this.bootFailure;
    const worker = this.current();
    worker.hold();
    const signal = request.signal;
    let onAbort = (): void => {};
    const aborted = new Promise<'aborted'>((resolve) => {
      onAbort = () => resolve('aborted');
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const watch = new BridgeWatch(this.bridge);
    try {
      return watch.settle(await this.runWhenReady(worker, request, budget, aborted, watch));
    } finally {
      signal?.removeEventListener('abort', onAbort);
      worker.release();
    }
  }

  private async runWhenReady(
    worker: PyodideInstance,
    request: RunRequest,
    budget: number,
    aborted: Promise<'aborted'>,
    watch: BridgeWatch,
  ): Promise<RunResult> {
    const booted = worker.ready.catch((error: Error) => {
      this.bootFailure = new Error(
        `pyodide runtime: the Python ${this.version} interpreter did not start: ${error.message}`,
      );
      throw this.bootFailure;
    });
    if ((await Promise.race([booted, aborted])) === 'aborted') {
      return { logs: [], error: { kind: 'abort', message: 'the run was aborted while the interpreter was starting' } };
    }
    const logs: string[] = [];
    const output = new OutputBudget(this.outputLimitBytes);
    const ending = await this.ending(worker, request, { budget, aborted, watch }, (line) => {
      if (output.log(line)) logs.push(line);
    });
    if (ending.kind === 'stopped') {
      this.replace(worker);
      return { logs, error: ending.error };
    }
    if (ending.kind === 'gone') {
      this.replace(worker);
      return { logs, error: { kind: 'worker-exit', message: ending.message } };
    }
    const outcome = decodeDriverOutcome(ending.outcome.outcomeJson);
    if (outcome === undefined) {
      this.replace(worker);
      return { logs, error: { kind: 'worker-exit', message: 'the Pyodide worker sent an unreadable outcome' } };
    }
    // Also replaced: a worker whose heap grew past half the cap would keep that memory while it idles.
    if (outcome.taint !== null || ending.outcome.heapBytes > this.memoryLimitBytes / 2) this.replace(worker);
    const overCap = { logs, error: runMessages.outputLimit(this.outputLimitBytes) };
    if (outcome.outputExceeded || !output.bytes(outcome.writtenBytes)) return overCap;
    const result = decodeGuestResult(outcome.result);
    if ('error' in result && result.error.kind === 'output-limit') return overCap;
    if ('value' in result && !output.value(toJsonText(result.value))) return overCap;
    return { logs, ...result };
  }

  /** How a program's run on `worker` ends: it finishes, its time runs out or it is aborted, or the worker dies. */
  private async ending(
    worker: PyodideInstance,
    request: RunRequest,
    { budget, aborted, watch }: { budget: number; aborted: Promise<'aborted'>; watch: BridgeWatch },
    onLog: (line: string) => void,
  ): Promise<Ending> {
    const { bindings } = request;
    const shapes = JSON.stringify(namespaceShapes(bindings));
    const { runId, done } = worker.run(request.program, shapes, this.outputLimitBytes, {
      onCall: (callId, namespace, member, argsJson) => {
        void answerCallText(bindings, namespace, member, argsJson, watch).then((answer) =>
          worker.reply(runId, callId, 'okJson' in answer ? `{"ok":${answer.okJson}}` : failureJson(answer)),
        );
      },
      onLog,
    });
    let cancelBudget: (() => void) | undefined;
    const ending = await Promise.race<Ending>([
      done.then(
        (outcome): Ending => ({ kind: 'done', outcome }),
        (error: Error): Ending => ({ kind: 'gone', message: error.message }),
      ),
      new Promise<Ending>((resolve) => {
        cancelBudget = startBudget(budget, () => resolve({ kind: 'stopped', error: runMessages.timeout(budget) }));
      }),
      aborted.then((): Ending => ({ kind: 'stopped', error: runMessages.aborted() })),
    ]);
    cancelBudget?.();
    return ending;
  }
}
