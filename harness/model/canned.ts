import { type Context, Service } from 'cordis';
import type { Model, ModelRequest, ModelResponse } from '../../contract/model.js';
import type { Exchange } from './plugin.js';

export interface CannedModelConfig {
  /** The answers, in order: request n gets answer n. */
  responses: ModelResponse[];
  /** The answer to every request past the list; without one such a request fails. */
  otherwise?: ModelResponse;
}

/**
 * A model for the gate's own probes, as the `model` service: it answers with fixed responses whatever it is
 * asked (a `run_code` call carrying a probe program, then a final answer; or a final answer to every request,
 * so one `agent.run` yields exactly the first request of a conversation) and keeps every request, so the
 * probe sees exactly what the backend sends a model.
 */
export default class CannedModel extends Service implements Model {
  readonly exchanges: Exchange[] = [];
  private readonly responses: readonly ModelResponse[];
  private readonly otherwise?: ModelResponse;

  constructor(ctx: Context, config: CannedModelConfig) {
    super(ctx, 'model');
    this.responses = config.responses;
    if (config.otherwise) this.otherwise = config.otherwise;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const response = this.responses[this.exchanges.length] ?? this.otherwise;
    const exchange: Exchange = { request: structuredClone(request) };
    this.exchanges.push(exchange);
    if (response === undefined) {
      exchange.error = `the probe model has no answer for request ${this.exchanges.length}: the agent kept asking after the final answer`;
      throw new Error(exchange.error);
    }
    exchange.response = structuredClone(response);
    return structuredClone(response);
  }
}
