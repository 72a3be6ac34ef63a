import { readFileSync } from 'node:fs';
import { type Context, Service } from 'cordis';
import type { Model, ModelRequest, ModelResponse } from '../../contract/model.js';
import type { Language } from '../../runtimes/seam/types.js';
import { parseScenario } from '../scenario/load.js';
import { endpointFromEnv } from './openai.js';
import { RecordingModel } from './recording.js';
import { ScriptedAnswers } from './script.js';

export interface KeylessModelConfig {
  /** Absolute path of the scenario file whose script answers (not needed to probe). */
  scenario?: string;
  language: Language;
  /**
   * `replay` answers from the script; `record` asks the endpoint named by the environment; `probe` answers
   * every request with a final answer, so one `agent.run` yields exactly the first request of a conversation.
   */
  mode?: 'replay' | 'record' | 'probe';
}

/** The final answer of a probe: the request is what the gate wanted, not the answer. */
export const PROBE_ANSWER = 'Nothing to do.';

/** One request, verbatim, and what was answered (or why nothing was). */
export interface Exchange {
  request: ModelRequest;
  response?: ModelResponse;
  error?: string;
}

/**
 * The model of a gate run, as the `model` service: it keeps every request verbatim and answers from the
 * scenario's script, failing with the first difference when a request departs from it.
 */
export default class KeylessModel extends Service implements Model {
  readonly exchanges: Exchange[] = [];
  /** Time spent answering, in milliseconds (the gate's "model" phase). */
  elapsedMs = 0;
  private readonly answers: { complete(request: ModelRequest): Promise<ModelResponse> | ModelResponse };
  private readonly script?: ScriptedAnswers;

  constructor(ctx: Context, config: KeylessModelConfig) {
    super(ctx, 'model');
    if (config.mode === 'probe') {
      this.answers = { complete: () => ({ content: PROBE_ANSWER, toolCalls: [] }) };
      return;
    }
    if (config.scenario === undefined) throw new Error(`model: mode ${config.mode ?? 'replay'} needs the scenario file that answers`);
    const scenario = parseScenario(config.scenario, readFileSync(config.scenario, 'utf8'));
    if (config.mode === 'record') {
      this.answers = new RecordingModel(endpointFromEnv(), config.scenario, config.language);
    } else {
      const script = new ScriptedAnswers(scenario, config.language);
      this.script = script;
      this.answers = { complete: (request) => script.answer(request) };
    }
  }

  /** True when the scripted conversation reached its final answer (always true when recording). */
  get finished(): boolean {
    return this.script?.finished ?? true;
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
