import type { Language } from '../../runtimes/seam/types.js';
import { runtimeTarget, type RuntimeTarget } from '../assembly/runtimes.js';
import { RUNTIME_LANGUAGE, type RuntimeName, type Scenario } from '../scenario/types.js';

/** Cheapest first: a probe only renders, so the runtime matters for its language, not its isolation. */
const CHEAPEST_FIRST: readonly RuntimeName[] = ['typescript', 'python', 'pyodide', 'python-container'];

/** An app to probe: one scenario's composition on one of its runtimes. */
export interface ProbeTarget {
  scenario: Scenario;
  runtime: RuntimeTarget;
}

/** The scenario's cheapest declared runtime of `language` that can run here; undefined when it has none. */
export function probeTarget(scenario: Scenario, language: Language, unavailable: ReadonlySet<RuntimeName> = new Set()): ProbeTarget | undefined {
  const name = CHEAPEST_FIRST.find((r) => RUNTIME_LANGUAGE[r] === language && scenario.runtimes.includes(r) && !unavailable.has(r));
  return name === undefined ? undefined : { scenario, runtime: runtimeTarget(name, scenario.runtimeConfig) };
}
