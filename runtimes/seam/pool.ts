import type { CodeRuntime } from './types.js';

/**
 * Process-wide runtimes shared by every composition that asks for the same key (`shared: true` in a
 * runtime plugin's config). Booting a container or a Pyodide instance costs seconds; the gate assembles
 * many compositions in one process, so they borrow one runtime instead. A pooled runtime outlives the
 * plugins that borrow it and is released only by disposeSharedRuntimes().
 */
interface PoolState {
  pool: Map<string, Promise<CodeRuntime>>;
  disposing: Set<Promise<void>>;
  disposalFailures: unknown[];
}

// Kept on globalThis under a registered symbol: this module may be loaded twice in one process (from
// dist/ by plugins the Loader imports, from source by tests), and both copies must see one pool.
const STATE_KEY = Symbol.for('concord.runtimes.pool');
const state: PoolState = ((globalThis as Record<symbol, PoolState | undefined>)[STATE_KEY] ??= {
  pool: new Map(),
  disposing: new Set(),
  disposalFailures: [],
});
const { pool, disposing, disposalFailures } = state;

/** The pooled runtime for `key`, created by `create` on first use. A failed creation is not kept. */
export function sharedRuntime(key: string, create: () => CodeRuntime | Promise<CodeRuntime>): Promise<CodeRuntime> {
  const existing = pool.get(key);
  if (existing !== undefined) return existing;
  const created = Promise.resolve().then(create);
  pool.set(key, created);
  created.catch(() => {
    if (pool.get(key) === created) pool.delete(key);
  });
  return created;
}

/**
 * Starts disposing a plugin-owned runtime without waiting: cordis disposes plugins synchronously, while
 * terminating a worker or removing a container takes time. disposeSharedRuntimes() awaits these
 * disposals and reports their failures (kept in the state, never thrown into the void).
 */
export function trackDisposal(runtime: CodeRuntime): void {
  const done: Promise<void> = Promise.resolve()
    .then(() => runtime.dispose())
    .catch((error: unknown) => void disposalFailures.push(error))
    .finally(() => disposing.delete(done));
  disposing.add(done);
}

/** Keys of the runtimes currently pooled, for reports and tests. */
export function sharedRuntimeKeys(): string[] {
  return [...pool.keys()];
}

/**
 * Disposes every pooled runtime, empties the pool and waits for the disposals of plugin-owned runtimes
 * still in flight. Errors are collected and thrown together. Call it once before the process ends.
 */
export async function disposeSharedRuntimes(): Promise<void> {
  const entries = [...pool.values()];
  pool.clear();
  const outcomes = await Promise.allSettled([
    ...entries.map(async (entry) => {
      // A runtime that never came up has nothing to dispose: its creation error went to its borrower.
      const runtime = await entry.catch(() => undefined);
      await runtime?.dispose();
    }),
    ...disposing,
  ]);
  const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  failures.push(...disposalFailures.splice(0));
  if (failures.length > 0) throw new AggregateError(failures, 'disposing shared code runtimes failed');
}
