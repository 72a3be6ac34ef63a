import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Loader from '@cordisjs/loader';
import { Context } from 'cordis';
import { stringify } from 'yaml';
import '../context.js';

/** One entry of a `cordis.yml`. */
export interface EntrySpec {
  id: string;
  name: string;
  config?: unknown;
}

export interface BootedApp {
  root: Context;
  dir: string;
  /** Every error and warning cordis reported, as text, from boot until now. */
  problems: string[];
  /** Stops every plugin and the Loader without errors; the directory stays as it was written. */
  stop(): Promise<void>;
  /** Stops, then removes the directory. */
  dispose(): Promise<void>;
}

/** The Loader's own sub-plugin whose global service listeners read `ctx.loader`. */
const LOADER_INJECT_PLUGIN = 'inject';
const LOAD_DEADLINE_MS = 10_000;

/**
 * Writes `entries` as `cordis.yml` into a fresh directory (plus any extra files; `entries` may be a
 * function of the directory, to name them) and boots it with the real Loader. Services in `provide` are
 * set on the root first, for parts a test stands in for.
 */
export async function bootApp(
  entries: EntrySpec[] | ((dir: string) => EntrySpec[]),
  options: { provide?: Record<string, unknown>; files?: Record<string, string> } = {},
): Promise<BootedApp> {
  const dir = await mkdtemp(join(tmpdir(), 'concord-app-'));
  for (const [name, text] of Object.entries(options.files ?? {})) await writeFile(join(dir, name), text);
  const filename = join(dir, 'cordis.yml');
  await writeFile(filename, stringify(typeof entries === 'function' ? entries(dir) : entries));
  const root = new Context();
  const problems: string[] = [];
  // Marked static, as cordis marks its own hooks, so they keep listening while the root stops.
  for (const level of ['error', 'warning'] as const) {
    const dispose = root.on(
      `internal/${level}`,
      (value: unknown) => void problems.push(`${level}: ${describe(value)}`),
      { global: true },
    );
    Object.defineProperty(dispose, Context.static, { value: root.scope });
  }
  for (const [name, value] of Object.entries(options.provide ?? {})) root.set(name, value);
  root.plugin(Loader as never, { name: 'cordis', filename });
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= stopApp(root));
  const dispose = () => stop().then(() => rm(dir, { recursive: true, force: true }));
  await root.start();
  try {
    await waitForEntries(root, problems);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { root, dir, problems, stop, dispose };
}

/**
 * The Loader starts its entries without awaiting them: wait until each has a plugin scope or has failed to
 * import (the Loader reports `Cannot find package "<name>"`), then let started plugins settle.
 */
async function waitForEntries(root: Context, problems: string[]): Promise<void> {
  const deadline = Date.now() + LOAD_DEADLINE_MS;
  const failedImport = (name: string) =>
    problems.some((p) => p.includes(`Cannot find package ${JSON.stringify(name)}`));
  for (;;) {
    const waiting = [...root.loader.entries()].filter((entry) => entry.fork === undefined && !entry.disabled);
    const failed = waiting.filter((entry) => failedImport(entry.options.name));
    if (failed.length > 0 && failed.length === waiting.length) {
      throw new Error(
        `cordis.yml: plugins not found: ${failed.map((e) => `entry ${e.id} (${e.options.name})`).join(', ')}\n${problems.join('\n')}`,
      );
    }
    if (waiting.length === 0) break;
    if (Date.now() > deadline)
      throw new Error(`cordis.yml: entries did not load: ${waiting.map((e) => e.id).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await root.events.flush();
}

/**
 * Stopping the root directly makes the Loader drop its `loader` service while the listeners of its own
 * `inject` sub-plugin still read it (a TypeError inside the Loader). So: remove that sub-plugin first, then
 * stop the root, then cancel the config write-back the Loader schedules while its entries go away.
 */
export async function stopApp(root: Context): Promise<void> {
  const files = Object.values(root.loader.files);
  for (const runtime of [...root.registry.values()]) {
    if (runtime.name === LOADER_INJECT_PLUGIN) root.registry.delete(runtime.plugin);
  }
  await root.stop();
  for (const file of files) clearTimeout(file.writeTask);
}

function describe(value: unknown): string {
  return value instanceof Error ? `${value.name}: ${value.message}` : String(value);
}
