import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import Loader from '@cordisjs/loader';
import { Context, type EffectScope, type ForkScope, Logger } from 'cordis';
import { RUNTIME_POOL_SERVICE } from '../../runtimes/seam/pool.js';
import { SESSION_SERVICE, type Session } from '../session.js';
import { importPluginModule } from './typescript-plugins.js';

/** An entry of the assembled file that could not be loaded, named by its id and its plugin. */
export class EntryError extends Error {
  constructor(
    readonly entryId: string,
    readonly plugin: string,
    problem: string,
  ) {
    super(`cordis.yml entry "${entryId}" (plugin ${plugin}): ${problem}`);
    this.name = 'EntryError';
  }
}

export interface BootedApp {
  readonly ctx: Context;
  /** A service by name, or an error naming the services that do exist. */
  service<T>(name: string): T;
  /** Problems cordis reported after start (plugin errors surface here, not as exceptions). */
  readonly errors: readonly string[];
  /** Stops every entry, then the loader, then the root; throws if cordis reported an error while stopping. */
  dispose(): Promise<void>;
}

const LOADING = 1;
const ACTIVE = 2;
const FAILED = 3;
/** How long an app may take to start (every plugin's apply, or a host's boot) before the pair fails. */
export const SETTLE_TIMEOUT_MS = 120_000;

// cordis prints plugin errors through its logger; the gate collects them from `internal/error` and reports
// them with the entry that caused them, so the console stays readable.
Logger.levels.base = 0;

/**
 * The Node loader without what its `init` adds to its base's: putting `process.env` back as it was when the
 * loader was imported, then reading `.env` and `.env.local` from the working directory. A gate starts an app
 * per pair: the first would wipe, for every app after it, what plugin modules set as they loaded (`import
 * 'dotenv/config'`), and the second would make a snapshot depend on the folder concord runs from and on
 * files CI does not have. Each app sees the environment concord runs in, as every pair of a CI run does.
 */
class GateLoader extends Loader {
  override async init(...args: Parameters<Loader['init']>): Promise<void> {
    const base = Object.getPrototypeOf(Loader.prototype) as Pick<Loader, 'init'>;
    await base.init.apply(this, args);
  }
}

/**
 * Boots `filename` with the real @cordisjs/loader. The loader writes the config back (and empties it on stop),
 * so it boots a copy in `workDir` and the assembled file stays as written. Resolves once every entry is active
 * and no plugin is still starting (an `async apply` has resolved), else fails after `settleTimeoutMs`.
 * A `session` is set on the root context before any entry loads: its runtime pool for the runtime plugins,
 * itself for the model plugin.
 */
export async function bootComposition(
  filename: string,
  workDir: string,
  entries: ReadonlyArray<{ id: string; name: string }>,
  session?: Session,
  settleTimeoutMs = SETTLE_TIMEOUT_MS,
  provided: Readonly<Record<string, unknown>> = {},
): Promise<BootedApp> {
  const bootDir = join(workDir, 'boot');
  await mkdir(bootDir, { recursive: true });
  const copy = join(bootDir, 'cordis.yml');
  await copyFile(filename, copy);

  const ctx = new Context();
  if (session) {
    ctx.set(SESSION_SERVICE, session);
    ctx.set(RUNTIME_POOL_SERVICE, session.runtimes);
  }
  // What the gate hands the app itself (its model), before any entry loads.
  for (const [name, value] of Object.entries(provided)) ctx.set(name, value);
  const errors: string[] = [];
  ctx.on('internal/error', (error: unknown) => void errors.push(describe(error)));
  const loaderFork = ctx.plugin(GateLoader, { name: 'cordis', filename: copy }) as ForkScope;
  const loader = ctx.get('loader') as unknown as {
    internal?: { import: typeof importPluginModule };
    file?: LoaderConfigFile;
  };
  // The loader imports each entry through `internal.import` when one is set: a `.ts` plugin needs tsx's scoped import.
  loader.internal = { import: importPluginModule };
  const writes = trackConfigWrites(loader, errors);
  // Not awaited: start() waits for every plugin's start, and a plugin whose apply never resolves would hang the
  // boot past any deadline. settle() waits for the same starts, with one.
  ctx.start().catch((error: unknown) => void errors.push(describe(error)));
  const app = makeApp(ctx, loaderFork, errors, writes);
  try {
    await settle(ctx, entries, errors, settleTimeoutMs, session?.neverStarted);
  } catch (error) {
    await app.dispose().catch(() => undefined);
    throw error;
  }
  return app;
}

async function settle(
  ctx: Context,
  entries: ReadonlyArray<{ id: string; name: string }>,
  errors: string[],
  timeoutMs: number,
  neverStarted: Map<string, string> | undefined,
): Promise<void> {
  const stuck = entries.find((e) => neverStarted?.has(e.name));
  if (stuck)
    throw new EntryError(
      stuck.id,
      stuck.name,
      `${neverStarted!.get(stuck.name)!} in an earlier app of this run: not waited for again`,
    );
  const loader = ctx.get('loader') as Loader;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const missing = entries.find((e) => errors.some((m) => m.includes(`Cannot find package "${e.name}"`)));
    if (missing)
      throw new EntryError(
        missing.id,
        missing.name,
        `cannot be imported (${errors.filter((m) => !m.startsWith('Cannot find package')).join('; ') || 'not found'})`,
      );
    const states = entries.map((e) => {
      const entry = [...loader.entries()].find((x) => x.options.id === e.id);
      return { ...e, entry, status: entry?.fork ? entryStatus(entry.fork) : undefined };
    });
    const failed = states.find((s) => s.status === FAILED);
    if (failed)
      throw new EntryError(failed.id, failed.name, `failed to start: ${errors.join('; ') || 'no reason given'}`);
    const starting = scopesStarting(ctx);
    if (states.every((s) => s.status === ACTIVE) && starting.length === 0) {
      if (errors.length > 0) throw new Error(`cordis reported errors while starting: ${errors.join('; ')}`);
      return;
    }
    if (Date.now() > deadline) {
      const why = states
        .filter((s) => s.status !== ACTIVE)
        .map((s) => {
          if (s.status === LOADING) {
            neverStarted?.set(
              s.name,
              `did not start within ${timeoutMs / 1000}s (the promise its apply() returned had not settled)`,
            );
            return `"${s.id}" (${s.name}) is still starting: the promise its apply() returned has not settled`;
          }
          const wanted = Object.keys((s.entry?.fork?.runtime.inject ?? {}) as Record<string, unknown>).filter(
            (name) => !ctx.get(name),
          );
          return `"${s.id}" (${s.name})${wanted.length ? ` waits for ${wanted.join(', ')}` : ' never became active'}`;
        });
      // A plugin an entry started with ctx.plugin() has no entry of its own: it is named as cordis names it.
      if (why.length === 0)
        why.push(
          ...starting.map(
            (name) => `plugin "${name}" is still starting: the promise its apply() returned has not settled`,
          ),
        );
      throw new Error(`entries did not start within ${timeoutMs / 1000}s: ${why.join('; ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * An entry's state. A plugin that is not `reusable` runs its apply once, on the plugin's main scope, not on the
 * entry's fork: the fork is active while that apply's promise is still pending or has rejected.
 */
function entryStatus(fork: ForkScope): number {
  const own = fork.status as number;
  const main = fork.runtime.status as number;
  if (own === FAILED || main === FAILED) return FAILED;
  return own === ACTIVE ? main : own;
}

/** The plugins of the app whose start (an apply or a fork's apply) is still in flight, by name. */
function scopesStarting(ctx: Context): string[] {
  const starting: string[] = [];
  for (const [, main] of ctx.registry.entries()) {
    const scopes: EffectScope[] = [main, ...main.children];
    if (scopes.some((scope) => (scope.status as number) === LOADING)) starting.push(main.name ?? 'anonymous');
  }
  return starting;
}

/** The loader's handle on the file it booted (not in its public types). */
interface LoaderConfigFile {
  writeTask?: ReturnType<typeof setTimeout>;
  write(config: unknown): void;
  _write(config: unknown): Promise<void>;
}

interface ConfigWrites {
  /** Stops further write-backs and waits for the ones in flight. */
  settle(): Promise<void>;
}

/**
 * The loader writes the config back on a timer and does not await, catch or order the writes; a write still
 * in flight when the directory is removed would reject unhandled and end the process. Track every write of
 * the file the loader opens (it opens it while starting, so the tracking is in place before it can write),
 * run them in turn, and on disposal stop new ones and wait for the rest (the booted file is a throwaway copy).
 */
function trackConfigWrites(loader: { file?: LoaderConfigFile }, errors: string[]): ConfigWrites {
  const inFlight = new Set<Promise<void>>();
  const tracked = new Set<LoaderConfigFile>();
  const track = (file: LoaderConfigFile): void => {
    if (tracked.has(file)) return;
    tracked.add(file);
    const write = file._write.bind(file);
    // One after the other: two writes at once share one `.tmp` file, and the second rename finds it gone.
    let previous: Promise<void> = Promise.resolve();
    file._write = (config) => {
      const done = previous
        .then(() => write(config))
        .catch((error: unknown) => void errors.push(`writing the booted cordis.yml back failed: ${describe(error)}`))
        .finally(() => inFlight.delete(done));
      previous = done;
      inFlight.add(done);
      return done;
    };
  };
  let current = loader.file;
  if (current) track(current);
  Object.defineProperty(loader, 'file', {
    configurable: true,
    enumerable: true,
    get: () => current,
    set(file: LoaderConfigFile | undefined) {
      if (file) track(file);
      current = file;
    },
  });
  return {
    async settle() {
      for (const file of tracked) {
        file.write = () => undefined;
        clearTimeout(file.writeTask);
      }
      await Promise.all(inFlight);
    },
  };
}

function makeApp(ctx: Context, loaderFork: ForkScope, errors: string[], writes: ConfigWrites): BootedApp {
  let disposed: Promise<void> | undefined;
  return {
    ctx,
    errors,
    service<T>(name: string): T {
      const value = ctx.get(name) as T | undefined;
      if (value === undefined || value === null) throw new Error(`the composition provides no "${name}" service`);
      return value;
    },
    dispose() {
      disposed ??= (async () => {
        const before = errors.length;
        const loader = ctx.get('loader') as Loader | undefined;
        // Stop the entries while the loader is still a service. The loader's inject helper listens for
        // service changes and reads `ctx.loader`; removing it before the loader itself keeps that listener
        // from running against an unset loader (the TypeError a plain `ctx.stop()` shows).
        await loader?.stop();
        for (const [key, runtime] of ctx.registry.entries()) {
          if ((runtime.plugin as { name?: string } | null)?.name === 'inject') ctx.registry.delete(key);
        }
        loaderFork.dispose();
        await ctx.stop();
        // Entries still importing when the app stopped fail later on the stopped context (cordis's
        // INACTIVE_EFFECT); with no listener left, cordis would print each with its stack. They belong to
        // an app that is gone: keep them off the console.
        ctx.on('internal/error', () => undefined);
        // Disposers run as detached promises: let them finish before judging.
        await new Promise((resolve) => setImmediate(resolve));
        await writes.settle();
        if (errors.length > before)
          throw new Error(`cordis reported errors while stopping: ${errors.slice(before).join('; ')}`);
      })();
      return disposed;
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
