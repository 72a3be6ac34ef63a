import type { Language } from '../../runtimes/seam/types.js';
import { RUNTIME_NAMES, type RuntimeName, runtimeLanguage } from '../runtime-names.js';
import type { Scenario } from '../scenario/types.js';
import type { Session } from '../session.js';
import { type RuntimeTarget, runtimeTarget } from './runtimes.js';

/** An app to probe: one scenario's composition on one of its runtimes. */
export interface ProbeTarget {
  scenario: Scenario;
  runtime: RuntimeTarget;
}

/**
 * The scenario's cheapest declared runtime of `language` that can run here (borrowed from `session`'s pool); undefined
 * when it has none.
 */
export function probeTarget(
  scenario: Scenario,
  language: Language,
  unavailable: ReadonlySet<RuntimeName> = new Set(),
  session?: Session,
): ProbeTarget | undefined {
  // The table is cheapest first: a probe only renders, so the runtime matters for its language, not its isolation.
  const name = RUNTIME_NAMES.find(
    (r) => runtimeLanguage(r) === language && scenario.runtimes.includes(r) && !unavailable.has(r),
  );
  return name === undefined ? undefined : { scenario, runtime: runtimeTarget(name, scenario.runtimeConfig, session) };
}
