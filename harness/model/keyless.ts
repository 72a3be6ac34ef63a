import type { Model, ModelRequest, ModelRequestInput, ModelResponse } from '../../contract/model.js';
import { recordedRequest } from './request-form.js';

/** One request, as the gate records it, and what was answered (or why nothing was). */
export interface Exchange {
  request: ModelRequest;
  response?: ModelResponse;
  error?: string;
}

/** What answers a gate's model: the scenario's script, a live model, or a probe's fixed answers. */
export interface Answers {
  complete(request: ModelRequest): Promise<ModelResponse> | ModelResponse;
  /** True when the conversation reached its final answer (absent: it always has). */
  readonly finished?: boolean;
}

/**
 * The model the gate hands an app it boots: every request is recorded as it came (in the gate's form) and answered by
 * `answers`; the time spent answering is the gate's "model" phase.
 */
export class GateModel implements Model {
  readonly exchanges: Exchange[] = [];
  /** Time spent answering, in milliseconds. */
  elapsedMs = 0;

  constructor(private readonly answers: Answers) {}

  /** True when the conversation reached its final answer. */
  get finished(): boolean {
    return this.answers.finished ?? true;
  }

  async complete(input: ModelRequestInput): Promise<ModelResponse> {
    const request = recordedRequest(structuredClone(input) as ModelRequestInput);
    const exchange: Exchange = { request };
    this.exchanges.push(exchange);
    const started = performance.now();
    try {
      exchange.response = structuredClone(await this.answers.complete(structuredClone(request)));
      return structuredClone(exchange.response);
    } catch (error) {
      exchange.error = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      this.elapsedMs += performance.now() - started;
    }
  }
}

/**
 * Fixed answers, for the gate's own probes: response n answers request n, `otherwise` every request past them (a final
 * answer to every request, so one conversation yields exactly its first request).
 */
export function cannedAnswers(responses: readonly ModelResponse[], otherwise?: ModelResponse): Answers {
  let next = 0;
  return {
    complete() {
      const response = responses[next++] ?? otherwise;
      if (response === undefined)
        throw new Error(
          `the probe model has no answer for request ${next}: the agent kept asking after the final answer`,
        );
      return response;
    },
  };
}
