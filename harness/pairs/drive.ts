import { pathToFileURL } from 'node:url';
import type { RuntimePlugin, SharedRuntimeConfig } from '../../runtimes/seam/plugin.js';
import { pluginPath } from '../assembly/assemble.js';
import { type RuntimeTarget, runtimeTarget } from '../assembly/runtimes.js';
import type { ProjectConfig } from '../project/config.js';
import type { Project } from '../project/root.js';
import type { RuntimeName } from '../runtime-names.js';
import { loadScenarios } from '../scenario/discover.js';
import { InputError } from '../scenario/error.js';
import { RUNTIME_SETTING_NAMES } from '../scenario/runtime-settings.js';
import type { Scenario } from '../scenario/types.js';
import type { Session } from '../session.js';
import { inOrder } from './concurrent.js';
import { type Pair, type Selection, selectPairs } from './select.js';

/**
 * The project's scenarios, each parsed once, with the project's defaults filled in where a scenario sets
 * none (`timeoutMs` and the bridge bounds of `concord.config.yml`): every pair, probe and recording of a command reads these.
 */
export async function loadProjectScenarios(project: Project, scenariosDir = project.scenariosDir): Promise<Scenario[]> {
  const scenarios = await loadScenarios(scenariosDir, project.root);
  // concord assembles an app from its scenario's composition, unless the project's host boots it.
  const bare = project.config.host === undefined ? scenarios.find((s) => s.composition.length === 0) : undefined;
  if (bare !== undefined)
    throw new InputError(
      bare.file,
      1,
      1,
      'the scenario has no composition, and concord assembles its app from one',
      "list the app's cordis entries under composition: (the tool registry, your tool plugins, the agent), or name the host that boots your app your own way: host: ./concord-host.mjs in concord.config.yml",
    );
  return scenarios.map((scenario) => withProjectSettings(scenario, project.config));
}

/**
 * A command's scenarios (`loadProjectScenarios`) and the scenario × runtime pairs of its selection; without
 * runtimes of its own the selection takes the project's (`runtimes` of `concord.config.yml`).
 */
export async function loadPairs(
  project: Project,
  selection: Selection,
  scenariosDir = project.scenariosDir,
): Promise<{ scenarios: Scenario[]; pairs: Pair[]; selection: Selection }> {
  const scenarios = await loadProjectScenarios(project, scenariosDir);
  const { runtimes } = project.config;
  const chosen =
    selection.runtimes || !runtimes
      ? selection
      : { ...selection, runtimes, runtimesFrom: `runtimes in ${project.configFile}` };
  return { scenarios, pairs: selectPairs(scenarios, chosen), selection: chosen };
}

/** A pair about to run: its scenario, its runtime borrowed from the session's pool. */
export interface ReadyPair<P extends Pair> {
  pair: P;
  scenario: Scenario;
  target: RuntimeTarget;
}

export interface DriveOptions<P extends Pair, R, W> {
  /** Owns the runtimes the pairs borrow; the command that created it disposes it once. */
  session: Session;
  pairs: readonly P[];
  /** Runs one pair whose runtime runs here. */
  run(ready: ReadyPair<P>): Promise<R>;
  /** Runtimes that do not run, each with why: their pairs are not booted, `result` says what they become. */
  notRun?: { runtimes: ReadonlyMap<RuntimeName, W>; result(pair: P, why: W): R };
  /** Pairs run at the same time (default 1); results come back in pair order whatever finishes first. */
  jobs?: number;
  /** Called with each result in pair order, as soon as every earlier pair has finished. */
  settled?(result: R): void;
}

/**
 * Runs every pair of a command (the gate, a drift watch, a recording): a pair of a runtime that does not run
 * here becomes what `notRun` says; every other gets its runtime from the session and is handed to `run`.
 * Resolves (or rejects) only once every runtime it started early is in the session's pool or failed to start:
 * a start still on its way when the command disposes its session would put a runtime into the pool after
 * its disposal, and nothing would ever stop it.
 */
export async function drivePairs<P extends Pair, R, W = string>(options: DriveOptions<P, R, W>): Promise<R[]> {
  const { session, notRun } = options;
  const prewarming = prewarmRuntimes(
    session,
    options.pairs.filter((pair) => !notRun?.runtimes.has(pair.runtime)),
  );
  try {
    return await inOrder(
      options.pairs,
      options.jobs ?? 1,
      async (pair) => {
        const why = notRun?.runtimes.get(pair.runtime);
        if (notRun && why !== undefined) return notRun.result(pair, why);
        const { scenario } = pair;
        return options.run({ pair, scenario, target: runtimeTarget(pair.runtime, scenario.runtimeConfig, session) });
      },
      (result) => options.settled?.(result),
      // A pair whose runtime is still starting (a Pyodide boot) does not hold a lane while a later pair's is up.
      (pair) => !prewarming.starting.has(pair.runtime),
    );
  } finally {
    await prewarming.settled;
  }
}

/**
 * Starts the runtime of the first pair of each runtime in the session's pool, all at once: a Pyodide boot or a
 * container start then runs beside the first pairs instead of waiting for the pair order to reach it. The
 * pairs borrow what was started (the same pool key); a runtime that fails to start fails its first pair, as
 * without this. `starting` holds the runtimes still starting (each leaves once it has started or failed to);
 * `settled` resolves when none is left.
 */
function prewarmRuntimes(
  session: Session,
  pairs: readonly Pair[],
): { starting: ReadonlySet<RuntimeName>; settled: Promise<void> } {
  const starting = new Set<RuntimeName>();
  const first = new Map<RuntimeName, Pair>();
  for (const pair of pairs) if (!first.has(pair.runtime)) first.set(pair.runtime, pair);
  const started = [...first.values()].map((pair) => {
    starting.add(pair.runtime);
    return prewarm(session, pair).finally(() => starting.delete(pair.runtime));
  });
  return { starting, settled: Promise.all(started).then(() => undefined) };
}

async function prewarm(session: Session, pair: Pair): Promise<void> {
  const target = runtimeTarget(pair.runtime, pair.scenario.runtimeConfig, session);
  try {
    const plugin = (
      (await import(pathToFileURL(pluginPath('runtime', target.plugin)).href)) as {
        default: Pick<RuntimePlugin<SharedRuntimeConfig>, 'prewarm'>;
      }
    ).default;
    await plugin.prewarm(session.runtimes, target.config);
  } catch {
    // Not loadable here: the pair's own boot reports why.
  }
}

/** The scenario with the project's runtime settings (`timeoutMs`, the bridge bounds) where it sets none itself. */
function withProjectSettings(scenario: Scenario, config: ProjectConfig): Scenario {
  const defaults = RUNTIME_SETTING_NAMES.filter(
    (name) => config[name] !== undefined && !(name in scenario.runtimeConfig),
  ).map((name) => [name, config[name]]);
  if (defaults.length === 0) return scenario;
  return { ...scenario, runtimeConfig: { ...Object.fromEntries(defaults), ...scenario.runtimeConfig } };
}
