import { Buffer } from 'node:buffer';
import { parseJsonValue, toJsonText } from '../seam/json.js';
import type { BindingNamespace, CodeRuntime, JsonValue, RunError, RunRequest, RunResult } from '../seam/types.js';
import { assertValidBindings } from '../seam/validate.js';
import { PyodideInstance, type RunOutcome } from './instance.js';
import type { NamespaceSpec } from './protocol.js';
import { parsePyodideConfig, PYODIDE_DEFAULTS, type PyodideRuntimeConfig } from './config.js';
import type { PyodidePythonVersion } from './versions.js';

export interface PyodideRuntime extends CodeRuntime {
  readonly version: PyodidePythonVersion;
  /** Boots the interpreter now (runs do it on demand); resolves with what it reports about itself. */
  warm(): Promise<{ python: string; unicode: string }>;
}

type Ending = { kind: 'done'; outcome: RunOutcome } | { kind: 'stopped'; error: RunError } | { kind: 'gone'; message: string };

interface DriverOutcome {
  result: string;
  outputExceeded: boolean;
  taint: string | null;
}

function decodeDriverOutcome(text: string): DriverOutcome | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const { result, outputExceeded, taint } = parsed as Record<string, unknown>;
  if (typeof result !== 'string' || typeof outputExceeded !== 'boolean') return undefined;
  if (taint !== null && typeof taint !== 'string') return undefined;
  return { result, outputExceeded, taint };
}

const GUEST_ERROR_KINDS = new Set(['exception', 'invalid-output']);

/** The guest's `{"value"}` / `{"error"}` result, validated and rebuilt as a RunResult part. */
function decodeGuestResult(text: string): { value: JsonValue } | { error: RunError } {
  let parsed: JsonValue;
  try {
    parsed = parseJsonValue(text, 'the program result');
  } catch (error) {
    return { error: { kind: 'invalid-output', message: (error as Error).message } };
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    if (Object.hasOwn(parsed, 'value')) return { value: parsed.value! };
    const error = parsed.error;
    if (error !== null && typeof error === 'object' && !Array.isArray(error)) {
      const { kind, message, name } = error;
      if (typeof kind === 'string' && GUEST_ERROR_KINDS.has(kind) && typeof message === 'string') {
        const runError: RunError = { kind: kind as RunError['kind'], message };
        if (typeof name === 'string' && name !== '') runError.name = name;
        return { error: runError };
      }
    }
  }
  return { error: { kind: 'invalid-output', message: 'the Pyodide guest sent a result of an unknown shape' } };
}

function namespaceSpecs(bindings: readonly BindingNamespace[]): NamespaceSpec[] {
  return bindings.map((namespace) => ({
    name: namespace.name,
    members: [...namespace.functions.keys()],
    ...(namespace.errorClass === undefined ? {} : { errorClass: { ...namespace.errorClass } }),
  }));
}

/** Calls a host function for the program; every answer is a `{"ok"}` / `{"error"}` JSON text. */
async function answerCall(bindings: readonly BindingNamespace[], namespaceName: string, member: string, argsJson: string): Promise<string> {
  const namespace = bindings.find((candidate) => candidate.name === namespaceName);
  const fn = namespace?.functions.get(member);
  if (fn === undefined) return JSON.stringify({ error: `${namespaceName} has no member ${JSON.stringify(member)}` });
  let args: JsonValue;
  try {
    args = parseJsonValue(argsJson, `the arguments of ${namespaceName}[${JSON.stringify(member)}]`);
  } catch (error) {
    return JSON.stringify({ error: (error as Error).message });
  }
  let value: unknown;
  try {
    value = await fn(args);
  } catch (error) {
    return JSON.stringify({ error: error instanceof Error ? error.message : String(error) });
  }
  try {
    return `{"ok":${toJsonText(value, `the result of ${namespaceName}[${JSON.stringify(member)}]`)}}`;
  } catch (error) {
    return JSON.stringify({ error: (error as Error).message });
  }
}

/** The time budget of one run: the request's own, or the runtime's. */
function runBudget(requested: number | undefined, fallback: number): number {
  if (requested === undefined) return fallback;
  if (!Number.isSafeInteger(requested) || requested <= 0) {
    throw new RangeError(`pyodide runtime: request.timeoutMs must be a positive integer, got ${requested}`);
  }
  return requested;
}

/**
 * CPython compiled to WebAssembly (Pyodide), in a sandboxed worker process (see sandbox.ts: a program that
 * reaches JavaScript is still inside it). One interpreter stays warm between runs; each run gets fresh
 * globals and a restored interpreter (see concord_pyodide.py). A run that times out, is aborted, kills the
 * interpreter or leaves state that cannot be undone costs the worker: its process is killed and a
 * replacement starts booting at once, so the next run finds it warm or nearly so.
 */
export function createPyodideRuntime(config: PyodideRuntimeConfig = {}): PyodideRuntime {
  const {
    version = PYODIDE_DEFAULTS.version,
    timeoutMs = PYODIDE_DEFAULTS.timeoutMs,
    outputLimitBytes = PYODIDE_DEFAULTS.outputLimitBytes,
    memoryLimitBytes = PYODIDE_DEFAULTS.memoryLimitBytes,
  } = parsePyodideConfig(config);

  let instance: PyodideInstance | undefined;
  let disposed = false;
  /** A worker that cannot boot will not boot next time either: later runs fail fast with the same error. */
  let bootFailure: Error | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const current = (): PyodideInstance => {
    if (instance === undefined || instance.dead) instance = new PyodideInstance(version, memoryLimitBytes);
    return instance;
  };
  /** Kills the worker process and starts booting its successor. */
  const replace = (spent: PyodideInstance): void => {
    if (instance === spent) instance = undefined;
    void spent.terminate();
    if (!disposed) current();
  };

  const runNow = async (request: RunRequest): Promise<RunResult> => {
    const signal = request.signal;
    if (signal?.aborted) return { logs: [], error: { kind: 'abort', message: 'the run was aborted before it started' } };
    if (disposed) throw new Error('pyodide runtime: the runtime is disposed');
    if (bootFailure !== undefined) throw bootFailure;
    const worker = current();
    worker.hold();
    try {
      return await runOn(worker, request);
    } finally {
      worker.release();
    }
  };

  const runOn = async (worker: PyodideInstance, request: RunRequest): Promise<RunResult> => {
    const signal = request.signal;
    let onAbort = (): void => {};
    const aborted = new Promise<'aborted'>((resolve) => {
      onAbort = () => resolve('aborted');
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await runWhenReady(worker, request, aborted);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  };

  const runWhenReady = async (worker: PyodideInstance, request: RunRequest, aborted: Promise<'aborted'>): Promise<RunResult> => {
    const booted = worker.ready.catch((error: Error) => {
      bootFailure = new Error(`pyodide runtime: the Python ${version} interpreter did not start: ${error.message}`);
      throw bootFailure;
    });
    if ((await Promise.race([booted, aborted])) === 'aborted') {
      return { logs: [], error: { kind: 'abort', message: 'the run was aborted while the interpreter was starting' } };
    }
    const budget = runBudget(request.timeoutMs, timeoutMs);
    const logs: string[] = [];
    let logBytes = 0;
    const { bindings } = request;
    const { runId, done } = worker.run(request.program, JSON.stringify(namespaceSpecs(bindings)), outputLimitBytes, {
      onCall: (callId, namespace, member, argsJson) => {
        void answerCall(bindings, namespace, member, argsJson).then((reply) => worker.reply(runId, callId, reply));
      },
      onLog: (line) => {
        logBytes += Buffer.byteLength(line, 'utf8') + 1;
        logs.push(line);
      },
    });
    let timer: NodeJS.Timeout | undefined;
    const ending = await Promise.race<Ending>([
      done.then(
        (outcome): Ending => ({ kind: 'done', outcome }),
        (error: Error): Ending => ({ kind: 'gone', message: error.message }),
      ),
      new Promise<Ending>((resolve) => {
        timer = setTimeout(
          () => resolve({ kind: 'stopped', error: { kind: 'timeout', message: `the program did not finish within ${budget} ms` } }),
          budget,
        );
      }),
      aborted.then((): Ending => ({ kind: 'stopped', error: { kind: 'abort', message: 'the run was aborted' } })),
    ]);
    clearTimeout(timer);
    if (ending.kind === 'stopped') {
      replace(worker);
      return { logs, error: ending.error };
    }
    if (ending.kind === 'gone') {
      replace(worker);
      return { logs, error: { kind: 'worker-exit', message: ending.message } };
    }
    const outcome = decodeDriverOutcome(ending.outcome.outcomeJson);
    if (outcome === undefined) {
      replace(worker);
      return { logs, error: { kind: 'worker-exit', message: 'the Pyodide worker sent an unreadable outcome' } };
    }
    // Also replaced: a worker whose heap grew past half the cap would keep that memory while it idles.
    if (outcome.taint !== null || ending.outcome.heapBytes > memoryLimitBytes / 2) replace(worker);
    const overCap = `the program's output exceeded ${outputLimitBytes} bytes`;
    if (outcome.outputExceeded || logBytes > outputLimitBytes) return { logs, error: { kind: 'output-limit', message: overCap } };
    const result = decodeGuestResult(outcome.result);
    if ('value' in result) {
      const valueBytes = Buffer.byteLength(toJsonText(result.value), 'utf8');
      if (logBytes + valueBytes > outputLimitBytes) {
        return { logs, error: { kind: 'output-limit', message: `${overCap} (the return value is ${valueBytes} bytes of JSON)` } };
      }
    }
    return { logs, ...result };
  };

  return {
    language: 'python',
    isolation: 'wasm',
    version,
    async warm() {
      if (disposed) throw new Error('pyodide runtime: the runtime is disposed');
      const worker = current();
      worker.hold();
      try {
        return await worker.ready;
      } finally {
        worker.release();
      }
    },
    run(request) {
      try {
        assertValidBindings(request.bindings);
      } catch (error) {
        return Promise.reject(error as Error);
      }
      const next = queue.then(() => runNow(request));
      queue = next.catch(() => undefined);
      return next;
    },
    async dispose() {
      disposed = true;
      const last = instance;
      instance = undefined;
      await last?.terminate();
    },
  };
}
