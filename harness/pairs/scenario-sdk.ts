import type { Language } from '../../runtimes/seam/types.js';
import type { SdkSize } from '../cache/token-counter.js';
import type { Project } from '../project/root.js';
import type { RuntimeName } from '../runtime-names.js';
import { SDK_FILE, snapshotFiles } from '../snapshot/transcript.js';
import { UserError } from '../user-error.js';
import { runOne } from './run-one.js';
import { onScenarioPair } from './scenario-pair.js';

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
  const { pair, result } = await onScenarioPair(project, scenario, runtime, async (replayed, target, session) => {
    const { record } = await runOne(replayed, target);
    const text = snapshotFiles(record, project.root).get(SDK_FILE[target.language]);
    const size = text === undefined ? undefined : await session.tokens.measureSdk(target.language, text, undefined);
    return { record, language: target.language, text, size };
  });
  const { record, language, text, size } = result;
  const shown = `${pair.scenario.name} × ${pair.runtime}`;
  if (text === undefined)
    throw new UserError(
      `${shown}: the app showed its model no SDK${record.failure === undefined ? '' : ` (${record.failure.split('\n')[0]})`}`,
      {
        hint: 'check that the scenario passes concord gate, and that its app renders a tools:sdk section',
        exitCode: 1,
      },
    );
  return { pair: shown, language, text, size };
}
