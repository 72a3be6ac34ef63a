import { join } from 'node:path';
import { packageRoot } from '../../../runtimes/seam/package-root.js';
import { probeOnce } from '../../assembly/app-probe.js';
import type { ProbeTarget } from '../../assembly/probe-targets.js';
import { runtimeTarget } from '../../assembly/runtimes.js';
import { loadScenarios } from '../../scenario/discover.js';
import type { Scenario } from '../../scenario/types.js';
import type { SdkSource } from '../measure-skew.js';

/** A committed scenario by name. */
export async function committedScenario(name: string): Promise<Scenario> {
  const found = (await loadScenarios(join(packageRoot(), 'scenarios'))).find((s) => s.name === name);
  if (found === undefined) throw new Error(`no committed scenario ${name}`);
  return found;
}

/**
 * The scenario with its registry told to write the Python SDK for CPython 3.15: the app's renderer is then
 * not pinned to a lower floor, as a renderer that reads identifiers with Node's own tables would be.
 */
export function unpinned(scenario: Scenario): Scenario {
  return {
    ...scenario,
    composition: scenario.composition.map((e) =>
      e.plugin === 'concord/tools' ? { ...e, config: { ...(e.config as object), pythonFloor: '3.15' } } : e,
    ),
  };
}

/** The scenario's app on the local CPython process runtime. */
export const onPython = (scenario: Scenario): ProbeTarget => ({
  scenario,
  runtime: runtimeTarget('python', scenario.runtimeConfig),
});

/** The scenario's app as the SDK source of `measureSkew`. */
export function appSource(scenario: Scenario): SdkSource {
  const { runtime } = onPython(scenario);
  return {
    name: `scenario ${scenario.name} on python`,
    render: async (tools) => (await probeOnce(scenario, runtime, tools)).sdk,
  };
}
