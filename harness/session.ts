import { randomBytes } from 'node:crypto';
import type { Model } from '../contract/model.js';
import { RuntimePool } from '../runtimes/seam/pool.js';
import type { Language } from '../runtimes/seam/types.js';
import type { Scenario } from './scenario/types.js';

/** The service name under which the apps a session boots find it (`harness/assembly/boot.ts` sets it). */
export const SESSION_SERVICE = 'concordSession';

/**
 * What one concord command (a gate, a record, a drift watch, a skew) shares between the apps it boots,
 * owned by it and disposed once: the pooled runtimes, the live model handed to the model plugin, and the
 * scenarios it already parsed. It reaches the apps as a service on their root context, never through
 * process-wide state, so two commands in one process see nothing of each other.
 *
 * ```ts
 * await using session = new Session();
 * ```
 */
export class Session {
  readonly runtimes = new RuntimePool();
  private readonly liveModels = new Map<string, Model>();
  private readonly scenarios = new Map<string, Scenario>();

  /** Hands a live model to the model plugin by a token in its config: the endpoint and key never go into a `cordis.yml`. */
  registerLiveModel(model: Model): { token: string; release(): void } {
    const token = randomBytes(8).toString('hex');
    this.liveModels.set(token, model);
    return { token, release: () => this.liveModels.delete(token) };
  }

  liveModel(token: string): Model | undefined {
    return this.liveModels.get(token);
  }

  /** Hands the scenario as parsed (and as replayed in `language`) to the model plugin, which would otherwise read its file again. */
  handOver(scenario: Scenario, language: Language): void {
    this.scenarios.set(`${language}\0${scenario.file}`, scenario);
  }

  scenario(file: string, language: Language): Scenario | undefined {
    return this.scenarios.get(`${language}\0${file}`);
  }

  /** Disposes every runtime the session's apps borrowed; errors are thrown together once all are done. */
  async dispose(): Promise<void> {
    this.liveModels.clear();
    this.scenarios.clear();
    await this.runtimes.dispose();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }
}
