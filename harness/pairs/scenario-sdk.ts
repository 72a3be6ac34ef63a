import type { Language } from '../../runtimes/seam/types.js';
import { loadProjectHost } from '../assembly/project-host.js';
import type { SdkSize } from '../cache/token-counter.js';
import type { Project } from '../project/root.js';
import type { RuntimeName } from '../runtime-names.js';
import { scenarioForLanguage } from '../scenario/recording.js';
import { Session } from '../session.js';
import { SDK_FILE, snapshotFiles } from '../snapshot/transcript.js';
import { UserError } from '../user-error.js';
import { drivePairs, loadPairs } from './drive.js';
import { runOne } from './run-one.js';

/** The SDK one scenario's app showed its model, as the gate snapshots it, and what it costs by the gate's count. */
export interface ScenarioSdk {
  /** `scenario × runtime`: the pair that was run. */
  pair: string;
  language: Language;
  /** The text of the SDK file the gate writes (`tools-sdk.py`, `tools-sdk.ts`). */
  text: string;
  /** Undefined where the token counter is not installed. */
  size: SdkSize | undefined;
}

/**
 * Runs one scenario on one runtime (`runtime`, else its first selected one) through the project's own assembly or
 * host, as the gate runs a pair, and returns the SDK its app rendered: the project's own tools, its own renderer.
 */
export async function scenarioSdk(project: Project, scenario: string, runtime?: RuntimeName): Promise<ScenarioSdk> {
  const { pairs } = await loadPairs(project, {
    scenarios: [scenario],
    ...(runtime === undefined ? {} : { runtimes: [runtime] }),
  });
  const [first] = pairs;
  if (first === undefined)
    throw new UserError(
      `--scenario ${scenario}${runtime === undefined ? '' : ` --runtime ${runtime}`}: no such scenario × runtime in ${project.scenariosDir}`,
    );
  const host = await loadProjectHost(project);
  await using session = new Session(host === undefined ? {} : { host });
  const [ran] = await drivePairs({
    session,
    pairs: [first],
    run: async ({ scenario: loaded, target }) => {
      const replayed = scenarioForLanguage(loaded, target.language, project.root);
      const { record } = await runOne(replayed, target);
      return { record, language: target.language };
    },
  });
  const { record, language } = ran!;
  const pair = `${first.scenario.name} × ${first.runtime}`;
  const text = snapshotFiles(record, project.root).get(SDK_FILE[language]);
  if (text === undefined)
    throw new UserError(
      `${pair}: the app showed its model no SDK${record.failure === undefined ? '' : ` (${record.failure.split('\n')[0]})`}`,
      {
        hint: 'check that the scenario passes concord gate, and that its app renders a tools:sdk section',
        exitCode: 1,
      },
    );
  return { pair, language, text, size: await session.tokens.measureSdk(language, text, undefined) };
}
