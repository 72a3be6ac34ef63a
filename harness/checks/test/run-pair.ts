import { join } from 'node:path';
import { DEFAULT_PYTHON_FLOOR } from '../../../codemode/index.js';
import { packageRoot } from '../../../runtimes/seam/package-root.js';
import { runtimeTarget } from '../../assembly/runtimes.js';
import { runOne } from '../../pairs/run-one.js';
import { loadScenarios } from '../../scenario/discover.js';
import type { RuntimeName, Scenario } from '../../scenario/types.js';
import type { Session } from '../../session.js';
import { snapshotFiles } from '../../snapshot/transcript.js';
import type { CheckInput, PairRun } from '../types.js';
import { viewOfRecord } from '../view-of-record.js';

/** The committed scenarios. */
export const committedScenarios = (): Promise<Scenario[]> => loadScenarios(join(packageRoot(), 'scenarios'));

/**
 * Runs one scenario × runtime the way the gate does, on `session`, and returns what a check receives. A run that stops
 * short still gives the checks the requests the model saw (its outcome is the expectations check's affair),
 * but one without a single request has nothing to check.
 */
export async function runPair(
  scenario: Scenario,
  runtime: RuntimeName,
  session: Session,
): Promise<CheckInput & { pair: PairRun }> {
  const target = runtimeTarget(runtime, scenario.runtimeConfig, session);
  const { record } = await runOne(scenario, target);
  if (record.exchanges.length === 0)
    throw new Error(`${scenario.name} × ${runtime} reached no model request: ${record.failure ?? 'no reason given'}`);
  const pair = { scenario, runtime: target, record, files: snapshotFiles(record, packageRoot()) };
  return { view: viewOfRecord(record), floor: DEFAULT_PYTHON_FLOOR, session, pair };
}

/** The scenario with the `tools` entry's config replaced by `config(old)`. */
export function withToolsConfig(
  scenario: Scenario,
  config: (old: Record<string, unknown>) => Record<string, unknown>,
): Scenario {
  return {
    ...scenario,
    composition: scenario.composition.map((entry) =>
      entry.plugin === 'concord/tools'
        ? { ...entry, config: config((entry.config ?? {}) as Record<string, unknown>) }
        : entry,
    ),
  };
}
