import { pathToFileURL } from 'node:url';
import type { AgentService, RegisteredTool, ToolRegistryService } from '../../contract/backend.js';
import type { HostedApp, HostInput } from '../../contract/host.js';
import type { Model } from '../../contract/model.js';
import { runObserved } from '../../runtimes/seam/observe.js';
import type { RuntimePlugin } from '../../runtimes/seam/plugin.js';
import { defaultRuntimePool } from '../../runtimes/seam/pool.js';
import type { CodeRuntime } from '../../runtimes/seam/types.js';
import { GATE_MODEL_SERVICE } from '../model/plugin.js';
import type { Scenario } from '../scenario/types.js';
import type { ProjectHost } from '../session.js';
import { assemble, bootAssembly, composeWithModel, MODEL_PLUGIN, pluginPath } from './assemble.js';
import { SETTLE_TIMEOUT_MS } from './boot.js';
import { placeOf } from './plugin-import.js';
import type { RuntimeTarget } from './runtimes.js';

/** What the gate boots an app with: the pair, the model that answers it, and the model entry's config. */
export interface AppBoot {
  scenario: Scenario;
  runtime: RuntimeTarget;
  model: Model;
  /** What the assembled `cordis.yml` says answers the app (the scenario and language, or a live model's token). */
  modelConfig: Record<string, unknown>;
}

/** An app the gate booted, and what cordis reported of it after it started (concord's own assembly only). */
export type GateApp = HostedApp & { errors?: readonly string[] };

/**
 * Boots the app of one scenario × runtime: through the host the project names (`host:` in concord.config.yml), else
 * by concord's own assembly of the scenario's composition into a cordis.yml.
 */
export function bootApp(boot: AppBoot): Promise<GateApp> {
  const host = boot.runtime.session?.host;
  return host === undefined ? bootAssembled(boot) : bootHosted(host, boot);
}

/** concord's own way in: the composition, the runtime entry and the model entry, booted by the cordis loader. */
async function bootAssembled({ scenario, runtime, model, modelConfig }: AppBoot): Promise<GateApp> {
  const assembly = await assemble(composeWithModel(scenario, runtime, { plugin: MODEL_PLUGIN, config: modelConfig }));
  runtime.session?.handOver(scenario, runtime.language);
  const app = await bootAssembly(assembly, runtime.session, { [GATE_MODEL_SERVICE]: model });
  return {
    codeRuntime: app.service<CodeRuntime>('codeRuntime'),
    converse: async (text) => {
      await app.service<AgentService>('agent').run(text);
    },
    registerTool: (tool: RegisteredTool) => app.service<ToolRegistryService>('tools').register(tool),
    assembly: assembly.entries,
    errors: app.errors,
    dispose: () => app.dispose(),
  };
}

/** How long a host's boot may take before the pair fails (the start bound of every app; tests shorten it). */
export const HOST_BOOT = { timeoutMs: SETTLE_TIMEOUT_MS };

/** What a hosted app must have; the first member it lacks is named. */
const HOSTED_MEMBERS = ['codeRuntime', 'converse', 'registerTool', 'assembly', 'dispose'] as const;

/**
 * The project's host boots the app, handed the pair's runtime borrowed from the session's pool and the gate's model.
 * A host is the team's code: a boot that throws fails the pair naming the host's file and line; one that has not
 * answered within the start bound is told to stop (its signal aborts), fails the pair, and is disposed if it answers.
 */
async function bootHosted(loaded: ProjectHost, { scenario, runtime, model }: AppBoot): Promise<GateApp> {
  const pool = runtime.session?.runtimes ?? defaultRuntimePool();
  const plugin = (await import(pathToFileURL(pluginPath('runtime', runtime.plugin)).href))
    .default as RuntimePlugin<object>;
  const codeRuntime = await plugin.borrow(pool, runtime.config);
  const controller = new AbortController();
  const input: HostInput = {
    root: loaded.root,
    scenario: { name: scenario.name, file: scenario.file, ...compositionOf(scenario) },
    runtime: { name: runtime.name, language: runtime.language },
    model,
    codeRuntime,
    signal: controller.signal,
  };
  const what = `host ${loaded.ref} (${loaded.host.name})`;
  let timer: NodeJS.Timeout | undefined;
  const booting = Promise.resolve().then(() => loaded.host.boot(input));
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${what} did not boot the app of ${scenario.name} within ${HOST_BOOT.timeoutMs / 1000}s: it was told to stop (its signal aborted); make boot resolve once the app can take a conversation`,
          ),
        ),
      HOST_BOOT.timeoutMs,
    );
  });
  let app: HostedApp;
  try {
    app = await Promise.race([booting, deadline]);
  } catch (error) {
    controller.abort();
    void booting.then((late) => late?.dispose?.()).catch(() => undefined);
    throw hostFailure(error, what, loaded.file);
  } finally {
    clearTimeout(timer);
  }
  const missing = HOSTED_MEMBERS.find((member) => app?.[member] === undefined);
  if (missing !== undefined) {
    await Promise.resolve(app?.dispose?.()).catch(() => undefined);
    throw new Error(
      `${what} booted an app without ${missing}: boot must resolve with { ${HOSTED_MEMBERS.join(', ')} } (HostedApp of concord/contract)`,
    );
  }
  if (app.codeRuntime !== codeRuntime) watchRuns(app.codeRuntime, what);
  return app;
}

/**
 * A runtime of the app's own, made watchable at its `run` as concord's runtimes are: the gate's observers (its record
 * of the runs, the bound-names probe) then see every program the app sends through it.
 */
function watchRuns(runtime: CodeRuntime, what: string): void {
  const run = runtime.run.bind(runtime);
  try {
    runtime.run = (request) => runObserved(runtime, request, run);
  } catch {
    throw new Error(
      `${what} handed back a code runtime whose run cannot be watched (a frozen object): hand back a plain object whose run the app calls`,
    );
  }
}

/** A host's failure as the pair's reason: where in the host's own file it failed, when its stack says. */
function hostFailure(error: unknown, what: string, file: string): Error {
  if (error instanceof Error && error.message.startsWith(what)) return error;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  const place = placeOf(error, file);
  const at = place === undefined ? '' : ` at ${file}:${place.line}:${place.column}`;
  const failure = new Error(`${what} failed to boot the app${at}: ${message}; fix the host (--debug shows the stack)`);
  if (error instanceof Error && error.stack) failure.stack = error.stack;
  return failure;
}

/** The scenario's composition as written, for a host that reads it; absent when the scenario has none. */
function compositionOf(scenario: Scenario): { composition?: unknown[] } {
  if (scenario.composition.length === 0) return {};
  return {
    composition: scenario.composition.map(({ id, plugin, config }) => ({
      id,
      plugin,
      ...(config === undefined ? {} : { config }),
    })),
  };
}
