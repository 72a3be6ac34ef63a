import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ownedTempDir } from '../../runtimes/seam/owned-temp-dir.js';
import { builtModule } from '../../runtimes/seam/package-root.js';
import type { Scenario } from '../scenario/types.js';
import type { Session } from '../session.js';
import { type BootedApp, bootComposition, EntryError } from './boot.js';
import { cordisYaml } from './cordis-yaml.js';
import type { RuntimeTarget } from './runtimes.js';

/** Where the keyless model plugin lives. */
export const MODEL_PLUGIN = 'harness/model/plugin';

export interface CordisEntry {
  id: string;
  /** Absolute path of the built plugin module. */
  name: string;
  config?: unknown;
}

/** One scenario × runtime, assembled into a directory of its own. */
export interface Assembly {
  dir: string;
  /** The assembled `cordis.yml`, as written (before the loader touches its copy). */
  cordisYml: string;
  entries: CordisEntry[];
}

/** The entries of a scenario × runtime: the runtime and the model first, then the scenario's own. */
export function composeWithModel(
  scenario: Scenario,
  runtime: RuntimeTarget,
  model: { plugin: string; config: unknown },
): CordisEntry[] {
  const entries: CordisEntry[] = [
    { id: 'runtime', name: pluginPath('runtime', runtime.plugin), config: runtime.config },
    { id: 'model', name: pluginPath('model', model.plugin), config: model.config },
  ];
  for (const entry of scenario.composition) {
    if (!entry.resolved)
      throw new EntryError(
        entry.id,
        entry.plugin,
        `not resolved (declared at ${scenario.file}:${entry.line}); load scenarios with loadScenarios`,
      );
    entries.push({
      id: entry.id,
      name: entry.resolved.file,
      ...(entry.config === undefined ? {} : { config: entry.config }),
    });
  }
  return entries;
}

/** Built path of one of concord's own plugins (runtime, model), named by its source path. */
export function pluginPath(entryId: string, plugin: string): string {
  const path = builtModule(`${plugin}.ts`);
  if (!existsSync(path))
    throw new EntryError(
      entryId,
      plugin,
      `${path} does not exist: concord's build is incomplete (run npm run build in concord's folder)`,
    );
  return path;
}

/** Writes the entries as a real `cordis.yml` in a fresh directory. */
export async function assemble(entries: CordisEntry[]): Promise<Assembly> {
  // Removed by dispose, else when the host exits (Ctrl-C, SIGTERM), else (the host was killed) by the next host's
  // sweep.
  const dir = ownedTempDir('concord-assembly');
  const cordisYml = cordisYaml(entries);
  await writeFile(join(dir, 'cordis.yml'), cordisYml);
  return { dir, cordisYml, entries };
}

/**
 * Boots an assembly within `session`, with `provided` set on the app's root context (see `bootComposition`); disposing
 * the app also removes its directory.
 */
export async function bootAssembly(
  assembly: Assembly,
  session?: Session,
  provided: Readonly<Record<string, unknown>> = {},
): Promise<BootedApp> {
  let app: BootedApp;
  try {
    app = await bootComposition(
      join(assembly.dir, 'cordis.yml'),
      assembly.dir,
      assembly.entries,
      session,
      undefined,
      provided,
    );
  } catch (error) {
    await rm(assembly.dir, { recursive: true, force: true });
    throw error;
  }
  return {
    ...app,
    service: app.service.bind(app),
    async dispose() {
      try {
        await app.dispose();
      } finally {
        await rm(assembly.dir, { recursive: true, force: true });
      }
    },
  };
}
