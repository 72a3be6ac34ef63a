import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Model, ModelRequest, ModelResponse } from '../../contract/model.js';
import type { Language } from '../../runtimes/seam/types.js';
import { parseScenario } from '../scenario/load.js';
import { scenarioForLanguage } from '../scenario/recording.js';
import type { Session } from '../session.js';
import type { Answers } from './keyless.js';
import { ScriptedAnswers } from './script.js';

/** What answers a scenario's conversation: its script, or a live model handed over under a token. */
export interface KeylessModelConfig {
  /** Absolute path of the scenario file whose script answers. */
  scenario: string;
  language: Language;
  /** A live model handed over by the session (concord record, concord gate --live) answers instead of the script. */
  live?: string;
}

/**
 * The answers of one scenario × language: the scenario's script (hand-written, or recorded for this language), failing
 * with the first difference when a request departs from it; or the live model the session holds under `config.live`.
 */
export function keylessAnswers(config: KeylessModelConfig, session?: Session): Answers {
  if (config.live !== undefined) {
    const live = session?.liveModel(config.live) as (Model & { finished?: boolean }) | undefined;
    if (!live)
      throw new Error(
        'model: no live model is handed over under this token; live models come from concord record and concord gate --live, in the app they boot',
      );
    return {
      complete: (request: ModelRequest): Promise<ModelResponse> => live.complete(request),
      get finished() {
        return live.finished ?? true;
      },
    };
  }
  const scenario =
    session?.scenario(config.scenario, config.language) ??
    scenarioForLanguage(
      parseScenario(config.scenario, readFileSync(config.scenario, 'utf8')),
      config.language,
      // Without a session no project root was handed over: the scenario's own folder bounds its recordings.
      dirname(config.scenario),
    );
  const script = new ScriptedAnswers(scenario, config.language);
  return {
    complete: (request) => script.answer(request),
    get finished() {
      return script.finished;
    },
  };
}
