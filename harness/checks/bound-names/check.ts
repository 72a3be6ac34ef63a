import { BOUND_NAMES, type Finding } from '../../findings.js';
import { LANGUAGE_PACKS } from '../../languages/index.js';
import { type RunInAppOptions, runInApp } from '../../pairs/run-in-app.js';
import { firstSdkBlock } from '../stub-validity.js';
import type { PairCheck } from '../types.js';

/** The probe's own time budget: a scenario may shrink the runtime's budget to test timeouts. */
const PROBE_TIMEOUT_MS = 30_000;

export interface BoundNamesOptions {
  /** Puts something between the booted runtime and the probe (tests use it to build a leaking runtime). */
  wrap?: RunInAppOptions['wrap'];
}

/**
 * The probe boots the scenario's composition on its runtime (the gate's runtimes are pooled, so this is the very
 * runtime the scenario ran on) and runs through the backend's own path from its agent to `ctx.codeRuntime`.
 *
 * A program sees exactly `tools` and `ToolCallError` at run time, and none of the names the SDK declares as types:
 * the language's probe reports what it can reach (Python: the globals, and each declared class a NameError;
 * TypeScript: the values it receives, the global object, `typeof` of each declared name).
 */
export function boundNamesCheck(options: BoundNamesOptions = {}): PairCheck {
  return {
    id: BOUND_NAMES,
    needsPair: "it boots the app and runs a probe program on the pair's runtime",
    async run({ view, pair, session }): Promise<Finding[]> {
      const sdk = firstSdkBlock({ view });
      if (sdk === undefined) return [];
      const { probe } = LANGUAGE_PACKS[view.language];
      const declared = await probe.declared(sdk, session);
      const { run, failure } = await runInApp(pair.scenario, pair.runtime, probe.program(declared), {
        description: 'bound-names probe',
        timeoutMs: PROBE_TIMEOUT_MS,
        ...(options.wrap ? { wrap: options.wrap } : {}),
      });
      const where = `on the ${pair.runtime.name} runtime`;
      const error = (message: string): Finding => ({
        check: BOUND_NAMES,
        severity: 'error',
        message: `${message} ${where}`,
      });
      if (run === undefined)
        return [
          error(
            `the probe program never reached ctx.codeRuntime: the agent did not run the run_code call it was given${failure ? ` (${failure})` : ''}`,
          ),
        ];
      if (run.error)
        return [error(`the probe program failed (${run.error.kind}: ${run.error.message.split('\n').at(-1)})`)];
      const report = probe.read(run.value);
      if (report === undefined)
        return [error(`the probe program returned something unexpected (${JSON.stringify(run.value)})`)];
      return (await probe.problems(report, declared)).map(error);
    },
  };
}

/** The instance the gate runs (see index.ts). */
export const boundNames = boundNamesCheck();
