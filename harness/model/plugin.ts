import { type Context, Service } from 'cordis';
import type { Model, ModelRequestInput, ModelResponse } from '../../contract/model.js';
import { SESSION_SERVICE, type Session } from '../session.js';
import { type KeylessModelConfig, keylessAnswers } from './answers.js';
import { GateModel } from './keyless.js';

/** Where the gate hands an app it assembles the model that answers it (set on the app's root context). */
export const GATE_MODEL_SERVICE = 'concordGateModel';

/**
 * The `model` service of an app concord assembles: the gate's own model, handed over on the root context; an app booted
 * without one (a test's, say) answers from what the entry's config names, the scenario's script or a live model.
 */
export default class KeylessModelService extends Service implements Model {
  readonly model: Model;

  constructor(ctx: Context, config: KeylessModelConfig) {
    super(ctx, 'model');
    const handed = ctx.get(GATE_MODEL_SERVICE) as Model | undefined;
    this.model = handed ?? new GateModel(keylessAnswers(config, ctx.get(SESSION_SERVICE) as Session | undefined));
  }

  complete(request: ModelRequestInput): Promise<ModelResponse> {
    return this.model.complete(request);
  }
}
