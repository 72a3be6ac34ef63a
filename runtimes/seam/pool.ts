import type { RuntimeHost } from './byte-store.js';
import type { CodeRuntime } from './types.js';

/** The service name under which a host hands its pool to the runtime plugins of the apps it boots. */
export const RUNTIME_POOL_SERVICE = 'codeRuntimePool';

/**
 * Runtimes shared by every composition of one host that asks for the same key (`shared: true` in a runtime
 * plugin's config). Booting a container or a Pyodide instance costs seconds; the gate assembles many
 * compositions in one run, so they borrow one runtime instead. A pooled runtime outlives the plugins that
 * borrow it and is released by `dispose()`. Each gate, record or drift run owns one pool (its session),
 * so two runs in one process never share, or dispose, each other's runtimes.
 */
export class RuntimePool {
  /** What the host offers every runtime created for it (see RuntimeHost). */
  readonly host: RuntimeHost;
  private readonly pool = new Map<string, Promise<CodeRuntime>>();
  private readonly disposing = new Set<Promise<void>>();
  private readonly disposalFailures: unknown[] = [];

  constructor(host: RuntimeHost = {}) {
    this.host = host;
  }

  /** The pooled runtime for `key`, created by `create` on first use. A failed creation is not kept. */
  shared(key: string, create: () => CodeRuntime | Promise<CodeRuntime>): Promise<CodeRuntime> {
    const existing = this.pool.get(key);
    if (existing !== undefined) return existing;
    const created = Promise.resolve().then(create);
    this.pool.set(key, created);
    created.catch(() => {
      if (this.pool.get(key) === created) this.pool.delete(key);
    });
    return created;
  }

  /**
   * Starts disposing a plugin-owned runtime without waiting: cordis disposes plugins synchronously, while
   * terminating a worker or removing a container takes time. `dispose()` awaits these disposals and
   * reports their failures (kept here, never thrown into the void).
   */
  trackDisposal(runtime: CodeRuntime): void {
    const done: Promise<void> = Promise.resolve()
      .then(() => runtime.dispose())
      .catch((error: unknown) => void this.disposalFailures.push(error))
      .finally(() => this.disposing.delete(done));
    this.disposing.add(done);
  }

  /** Keys of the runtimes currently pooled, for reports and tests. */
  keys(): string[] {
    return [...this.pool.keys()];
  }

  /**
   * Disposes every pooled runtime, empties the pool and waits for the disposals of plugin-owned runtimes
   * still in flight. Errors are collected and thrown together. The pool can be used again afterwards.
   */
  async dispose(): Promise<void> {
    const entries = [...this.pool.values()];
    this.pool.clear();
    const outcomes = await Promise.allSettled([
      ...entries.map(async (entry) => {
        // A runtime that never came up has nothing to dispose: its creation error went to its borrower.
        const runtime = await entry.catch(() => undefined);
        await runtime?.dispose();
      }),
      ...this.disposing,
    ]);
    const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    failures.push(...this.disposalFailures.splice(0));
    if (failures.length > 0) throw new AggregateError(failures, 'disposing shared code runtimes failed');
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }
}

// For a host that boots apps without handing them a pool (an app of the user's, a test that boots one
// composition): one pool for the process. On globalThis under a registered symbol, because this module may
// be loaded twice in one process (from dist/ by plugins the Loader imports, from source by tests).
const DEFAULT_KEY = Symbol.for('concord.runtimes.defaultPool');
const holder = globalThis as Record<symbol, RuntimePool | undefined>;

/** The pool of a host that gave none. concord's own commands never use it: each run brings its own. */
export function defaultRuntimePool(): RuntimePool {
  return (holder[DEFAULT_KEY] ??= new RuntimePool());
}

/** Disposes the default pool (see `defaultRuntimePool`); call it once before the process ends. */
export function disposeSharedRuntimes(): Promise<void> {
  return defaultRuntimePool().dispose();
}

/** Keys of the runtimes in the default pool, for tests. */
export function sharedRuntimeKeys(): string[] {
  return defaultRuntimePool().keys();
}
