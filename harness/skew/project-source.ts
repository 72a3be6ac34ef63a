import { probeOnce } from '../assembly/app-probe.js';
import { probeTarget } from '../assembly/probe-targets.js';
import { unavailableRuntimes } from '../assembly/runtimes.js';
import { loadProjectScenarios } from '../pairs/drive.js';
import type { Project } from '../project/root.js';
import { RUNTIME_NAMES } from '../runtime-names.js';
import type { Session } from '../session.js';
import { UserError } from '../user-error.js';
import type { SdkSource } from './measure-skew.js';

/**
 * The project's own app as the source of the Python SDK: the scenario named `scenarioName`, else the first
 * one with a Python runtime that runs here, booted on a runtime borrowed from `session`. A string says why
 * there is none (bad input: exit 2).
 */
export async function projectSdkSource(
  session: Session,
  project: Project,
  scenarioName?: string,
): Promise<SdkSource | string> {
  let scenarios;
  try {
    scenarios = await loadProjectScenarios(project);
  } catch (error) {
    if (error instanceof UserError) return error.message;
    throw error;
  }
  const { scenariosDir } = project;
  const unavailable = new Set((await unavailableRuntimes(RUNTIME_NAMES)).keys());
  const candidates = scenarioName === undefined ? scenarios : scenarios.filter((s) => s.name === scenarioName);
  if (candidates.length === 0)
    return `--scenario ${scenarioName}: no such scenario in ${scenariosDir} (there are: ${scenarios.map((s) => s.name).join(', ')})`;
  const target = candidates.map((s) => probeTarget(s, 'python', unavailable, session)).find((t) => t !== undefined);
  if (target === undefined) {
    return scenarioName === undefined
      ? `no scenario in ${scenariosDir} declares a Python runtime that runs here; name one with --scenario`
      : `--scenario ${scenarioName}: declares no Python runtime that runs here (python, pyodide, python-container)`;
  }
  return {
    name: `scenario ${target.scenario.name} on ${target.runtime.name}`,
    async render(tools) {
      return (await probeOnce(target.scenario, target.runtime, tools)).sdk;
    },
  };
}
