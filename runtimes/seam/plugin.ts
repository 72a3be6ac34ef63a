import type { Context } from 'cordis';
import type { RuntimeHost } from './byte-store.js';
import { runObserved } from './observe.js';
import { defaultRuntimePool, RUNTIME_POOL_SERVICE, type RuntimePool } from './pool.js';
import type { CodeRuntime, RunRequest, RunResult } from './types.js';

/**
 * Turns a backend into a cordis plugin that provides `ctx.codeRuntime`.
 *
 * ```ts
 * // runtimes/<backend>/plugin.ts
 * export default runtimePlugin<WorkerConfig>({
 *   name: 'concord-runtime-worker',
 *   Config: parseWorkerConfig,           // optional: validate the raw cordis.yml config, throw a clear error
 *   create: (config) => createWorkerRuntime(config),   // may return a Promise
 *   key: (config) => ...,                 // optional: pool key for `shared: true` (default: name + config)
 * });
 * ```
 *
 * Loaded by path from a `cordis.yml` (`name: <abs>/dist/runtimes/<backend>/plugin.js`). The service value is
 * a facade over the runtime: consumers call `run()`; its `dispose()` releases the runtime only when the
 * plugin owns it. With `shared: true` the runtime comes from the host's pool (`pool.ts`: the
 * `codeRuntimePool` service the host set on the root context, else the process's default pool) and
 * survives the plugin; disposing the pool releases it. Otherwise the runtime is disposed with the plugin
 * (cordis disposes synchronously: the pool's `dispose()` also awaits those disposals).
 * The plugin is reusable: two entries in separate (isolated) contexts each get their own runtime.
 */

/** The service name, declared on cordis' Context by the tool layer (`codemode/tools/context.ts`). */
export const CODE_RUNTIME_SERVICE = 'codeRuntime';

/** Config every runtime plugin accepts. */
export interface SharedRuntimeConfig {
  /** Borrow the runtime from the host's pool instead of owning one. */
  shared?: boolean;
}

export interface RuntimePluginDefinition<C extends SharedRuntimeConfig> {
  /** Plugin name shown by cordis, e.g. `concord-runtime-worker`. */
  name: string;
  /** Validates and normalizes the raw config from `cordis.yml`; throw an Error naming the bad field. */
  Config?: (raw: unknown) => C;
  /** Creates the runtime; `host` is what the host offers every runtime it creates (see RuntimeHost). */
  create(config: C, host: RuntimeHost): CodeRuntime | Promise<CodeRuntime>;
  /** Pool key for `shared: true`; runtimes with equal keys are one runtime. Default: name + config. */
  key?(config: C): string;
}

export type { RuntimeHost } from './byte-store.js';

export interface RuntimePlugin<C extends SharedRuntimeConfig> {
  readonly name: string;
  readonly reusable: true;
  Config(raw: unknown): C;
  apply(ctx: Context, config: C): Promise<void>;
  /**
   * Starts, in `pool`, the runtime that an app whose entry has config `raw` (with `shared: true`) will borrow,
   * before any app asks for it: a host that knows which runtimes its apps will need starts them beside other
   * work. Resolves once the runtime has started or failed to; a failure is left to the first borrower, which
   * gets it as its own.
   */
  prewarm(pool: RuntimePool, raw: unknown): Promise<void>;
  /**
   * The runtime an app whose entry has config `raw` (with `shared: true`) would borrow from `pool`, outside any app: a
   * host that boots an app of its own hands it over. The pool owns it; disposing the result releases nothing.
   */
  borrow(pool: RuntimePool, raw: unknown): Promise<CodeRuntime>;
}

/** A stable text for a config: keys sorted at every level, `shared` left out (it is not part of identity). */
export function configKey(name: string, config: object): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
    );
  };
  const { shared: _shared, ...identity } = config as SharedRuntimeConfig;
  return `${name} ${JSON.stringify(sorted(identity))}`;
}

/** What consumers see as `ctx.codeRuntime`: the runtime, minus the power to dispose one it does not own. */
function serviceFacade(runtime: CodeRuntime, owned: boolean): CodeRuntime {
  const facade: CodeRuntime = Object.freeze({
    language: runtime.language,
    isolation: runtime.isolation,
    run: (request: RunRequest): Promise<RunResult> => runObserved(facade, request, (observed) => runtime.run(observed)),
    ...(runtime.start ? { start: () => runtime.start!() } : {}),
    dispose: async (): Promise<void> => {
      if (owned) await runtime.dispose();
    },
  });
  return facade;
}

function defaultConfig<C>(raw: unknown): C {
  if (raw === undefined || raw === null) return {} as C;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new TypeError(`runtime plugin config must be a mapping, got ${Array.isArray(raw) ? 'a list' : typeof raw}`);
  }
  return raw as C;
}

export function runtimePlugin<C extends SharedRuntimeConfig>(definition: RuntimePluginDefinition<C>): RuntimePlugin<C> {
  const parse = definition.Config ?? defaultConfig<C>;
  return {
    name: definition.name,
    reusable: true,
    Config(raw: unknown): C {
      const config = parse(raw ?? {});
      if (config.shared !== undefined && typeof config.shared !== 'boolean') {
        throw new TypeError(`${definition.name}: config.shared must be true or false`);
      }
      return config;
    },
    prewarm(pool: RuntimePool, raw: unknown): Promise<void> {
      const config = parse(raw ?? {});
      const runtime = pool.shared(definition.key?.(config) ?? configKey(definition.name, config), () =>
        definition.create(config, pool.host),
      );
      return runtime
        .then((started) => started.start?.())
        .then(
          () => undefined,
          () => undefined,
        );
    },
    async borrow(pool: RuntimePool, raw: unknown): Promise<CodeRuntime> {
      const config = parse(raw ?? {});
      const key = definition.key?.(config) ?? configKey(definition.name, config);
      return serviceFacade(await pool.shared(key, () => definition.create(config, pool.host)), false);
    },
    async apply(ctx: Context, config: C): Promise<void> {
      const pool = (ctx.get(RUNTIME_POOL_SERVICE) as RuntimePool | undefined) ?? defaultRuntimePool();
      const owned = config.shared !== true;
      const host = pool.host;
      const runtime = owned
        ? await definition.create(config, host)
        : await pool.shared(definition.key?.(config) ?? configKey(definition.name, config), () =>
            definition.create(config, host),
          );
      // The plugin may have been disposed while the runtime was starting: then nobody will ever use it.
      if (ctx.scope.uid === null) {
        if (owned) pool.trackDisposal(runtime);
        return;
      }
      if (owned) ctx.on('dispose', () => pool.trackDisposal(runtime));
      ctx.set(CODE_RUNTIME_SERVICE, serviceFacade(runtime, owned));
    },
  };
}
