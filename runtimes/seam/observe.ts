import type { CodeRuntime, RunRequest, RunResult } from './types.js';

/** Sees every run that crosses one `ctx.codeRuntime`: it may wrap the request's bindings and read the result. */
export type RunObserver = (request: RunRequest, run: (request: RunRequest) => Promise<RunResult>) => Promise<RunResult>;

// On globalThis under a registered symbol: this module may be loaded twice in one process (the gate from
// source under a test runner, the runtime plugins from dist/), and both copies must share one table.
const OBSERVERS_KEY = Symbol.for('concord.runtimes.observers');
const observers: WeakMap<CodeRuntime, RunObserver> = ((
  globalThis as Record<symbol, WeakMap<CodeRuntime, RunObserver> | undefined>
)[OBSERVERS_KEY] ??= new WeakMap());

/**
 * Puts `observer` on the runs of `service` (a `ctx.codeRuntime` made by `runtimePlugin`) until the returned
 * function is called. The gate records what programs ran and what they called this way, at the seam, whatever
 * backend sent them.
 */
export function observeRuns(service: CodeRuntime, observer: RunObserver): () => void {
  if (observers.has(service)) throw new Error('this code runtime is already observed');
  observers.set(service, observer);
  return () => void observers.delete(service);
}

/** Runs `request` through the observer of `service`, if one is set. */
export function runObserved(
  service: CodeRuntime,
  request: RunRequest,
  run: (request: RunRequest) => Promise<RunResult>,
): Promise<RunResult> {
  const observer = observers.get(service);
  return observer ? observer(request, run) : run(request);
}
