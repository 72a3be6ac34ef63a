import type { PythonVersion } from '../../codemode/index.js';
import type { Language } from '../../runtimes/seam/types.js';
import { type ProbeTarget, probeTarget } from '../assembly/probe-targets.js';
import { LANGUAGES } from '../languages/index.js';
import { type ProbeVerdict, runProbe } from '../probe/adversarial.js';
import type { RunSteps } from '../report/outcome.js';
import { type RuntimeName, runtimeLanguage } from '../runtime-names.js';
import type { Scenario } from '../scenario/types.js';
import type { Session } from '../session.js';
import { rendererFloorFindings } from '../skew/renderer-floor.js';

/**
 * The steps of a gate run that judge renderers rather than pairs: the renderer floor on each selected
 * scenario that runs Python, and the adversarial probe once per language, each through the project's own
 * app booted on a runtime that runs here (`unavailable` are the ones skipped), borrowed from the run's session.
 */
export async function runSteps(
  pairs: ReadonlyArray<{ scenario: Scenario; runtime: RuntimeName }>,
  unavailable: ReadonlySet<RuntimeName>,
  floor: PythonVersion,
  session: Session,
): Promise<RunSteps> {
  const inventory = () => session.inventory();
  const running = pairs.filter((p) => !unavailable.has(p.runtime));
  const scenariosOf = (language: Language) => [
    ...new Set(running.filter((p) => runtimeLanguage(p.runtime) === language).map((p) => p.scenario)),
  ];
  const targetsOf = (language: Language) =>
    scenariosOf(language).flatMap((s) => probeTarget(s, language, unavailable, session) ?? []);

  const floorTargets: ProbeTarget[] = targetsOf('python');
  const floorStep = await rendererFloorFindings(floorTargets, floor, inventory);
  const started = performance.now();
  const probes: ProbeVerdict[] = [];
  for (const language of LANGUAGES) {
    const verdict = await runProbe(targetsOf(language), floor, inventory, session);
    if (verdict) probes.push(verdict);
  }
  return {
    findings: [...floorStep.findings, ...probes.flatMap((p) => p.findings)],
    probes,
    times: { rendererFloor: floorStep.elapsedMs, probe: performance.now() - started },
    floorApps: floorTargets.length,
    floorRendered: floorStep.rendered,
  };
}
