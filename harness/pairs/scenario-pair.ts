import { loadProjectHost } from '../assembly/project-host.js';
import type { RuntimeTarget } from '../assembly/runtimes.js';
import type { Project } from '../project/root.js';
import type { RuntimeName } from '../runtime-names.js';
import { scenarioForLanguage } from '../scenario/recording.js';
import type { Scenario } from '../scenario/types.js';
import { Session } from '../session.js';
import { UserError } from '../user-error.js';
import { drivePairs, loadPairs } from './drive.js';
import type { Pair } from './select.js';

/**
 * Runs `run` on one pair of the project — the scenario named, on `runtime` or else its first — as the gate runs a pair:
 * in a session of its own with the project's host, the scenario as its runtime's language replays it.
 */
export async function onScenarioPair<R>(
  project: Project,
  name: string,
  runtime: RuntimeName | undefined,
  run: (scenario: Scenario, target: RuntimeTarget, session: Session) => Promise<R>,
): Promise<{ pair: Pair; result: R }> {
  const { pairs } = await loadPairs(project, {
    scenarios: [name],
    ...(runtime === undefined ? {} : { runtimes: [runtime] }),
  });
  const [pair] = pairs;
  if (pair === undefined)
    throw new UserError(
      `--scenario ${name}${runtime === undefined ? '' : ` --runtime ${runtime}`}: no such scenario × runtime in ${project.scenariosDir}`,
    );
  const host = await loadProjectHost(project);
  await using session = new Session(host === undefined ? {} : { host });
  const [result] = await drivePairs({
    session,
    pairs: [pair],
    run: ({ scenario, target }) => run(scenarioForLanguage(scenario, target.language, project.root), target, session),
  });
  return { pair, result: result! };
}
