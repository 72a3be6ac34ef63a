import { readFileSync } from 'node:fs';
import { type Context, Service } from 'cordis';
import type { Model, ModelRequest, ModelResponse } from '../../contract/model.js';
import type { Language } from '../../runtimes/seam/types.js';
import { parseScenario } from '../scenario/load.js';
import { scenarioForLanguage } from '../scenario/recording.js';
import { SESSION_SERVICE, type Session } from '../session.js';
import { ScriptedAnswers } from './script.js';

export interface KeylessModelConfig {
  /** Absolute path of the scenario file whose script answers. */
  scenario: string;
  language: Language;
  /**
   * A live model handed over by the session that boots the app (concord record, concord gate --live) answers instead of
   * the script.
   */
  live?: string;
}

/** One request, verbatim, and what was answered (or why nothing was). */
export interface Exchange {
  request: ModelRequest;
  response?: ModelResponse;
  error?: string;
}

/**
 * The model of a gate run, as the `model` service: it keeps every request verbatim and answers from the
 * scenario's script (hand-written, or recorded for this language), failing with the first difference when a
 * request departs from it.
 */
export default class KeylessModel extends Service implements Model {
  readonly exchanges: Exchange[] = [];
  /** Time spent answering, in milliseconds (the gate's "model" phase). */
  elapsedMs = 0;
  private readonly answers: { complete(request: ModelRequest): Promise<ModelResponse> | ModelResponse };
  private readonly script?: ScriptedAnswers;
  private readonly live?: Model & { finished?: boolean };

  constructor(ctx: Context, config: KeylessModelConfig) {
    super(ctx, 'model');
    // The session that booted this app hands over the live model and the scenario it parsed already.
    const session = ctx.get(SESSION_SERVICE) as Session | undefined;
    if (config.live !== undefined) {
      const live = session?.liveModel(config.live);
      if (!live)
        throw new Error(
          'model: no live model is handed over under this token; live models come from concord record and concord gate --live, in the app they boot',
        );
      this.live = live;
      this.answers = this.live;
    } else {
      const scenario =
        session?.scenario(config.scenario, config.language) ??
        scenarioForLanguage(parseScenario(config.scenario, readFileSync(config.scenario, 'utf8')), config.language);
      const script = new ScriptedAnswers(scenario, config.language);
      this.script = script;
      this.answers = { complete: (request) => script.answer(request) };
    }
  }

  /** True when the conversation reached its final answer. */
  get finished(): boolean {
    return this.script?.finished ?? this.live?.finished ?? true;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const exchange: Exchange = { request: structuredClone(request) };
    this.exchanges.push(exchange);
    const started = performance.now();
    try {
      exchange.response = structuredClone(await this.answers.complete(request));
      return structuredClone(exchange.response);
    } catch (error) {
      exchange.error = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      this.elapsedMs += performance.now() - started;
    }
  }
}
