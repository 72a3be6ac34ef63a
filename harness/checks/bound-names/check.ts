import { RUN_CODE_TOOL } from '../../../contract/backend.js';
import { observeRuns } from '../../../runtimes/seam/observe.js';
import type { RunRequest, RunResult } from '../../../runtimes/seam/types.js';
import { bootApp } from '../../assembly/hosted.js';
import { BOUND_NAMES, type Finding } from '../../findings.js';
import { LANGUAGE_PACKS } from '../../languages/index.js';
import { cannedAnswers, GateModel } from '../../model/keyless.js';
import { firstSdkBlock } from '../stub-validity.js';
import type { PairCheck, PairRun } from '../types.js';

/** The probe's own time budget: a scenario may shrink the runtime's budget to test timeouts. */
const PROBE_TIMEOUT_MS = 30_000;

export interface BoundNamesOptions {
  /** Puts something between the booted runtime and the probe (tests use it to build a leaking runtime). */
  wrap?: (request: RunRequest, run: (request: RunRequest) => Promise<RunResult>) => Promise<RunResult>;
}

/** What one probe run gave: the run as it crossed the runtime seam, or why none did. */
interface ProbeRun {
  run?: RunResult;
  failure?: string;
}

/**
 * Boots the scenario's composition on its runtime (the gate's runtimes are pooled, so this is the very runtime the
 * scenario ran on) with a model that asks for one `run_code` call holding the language's probe program, so the probe
 * takes the backend's own path from its agent to `ctx.codeRuntime`; the result is read at the runtime seam.
 */
async function runProbe(pair: PairRun, code: string, options: BoundNamesOptions): Promise<ProbeRun> {
  const responses = [
    {
      content: '',
      toolCalls: [{ id: 'probe-1', name: RUN_CODE_TOOL, arguments: { code, description: 'bound-names probe' } }],
    },
    { content: 'probe done', toolCalls: [] },
  ];
  const { scenario, runtime } = pair;
  const model = new GateModel(cannedAnswers(responses));
  const modelConfig = { scenario: scenario.file, language: runtime.language };
  const app = await bootApp({ scenario, runtime, model, modelConfig });
  const probe: ProbeRun = {};
  try {
    const stop = observeRuns(app.codeRuntime, async (request, next) => {
      const budgeted = { ...request, timeoutMs: PROBE_TIMEOUT_MS };
      probe.run = await (options.wrap ? options.wrap(budgeted, next) : next(budgeted));
      return probe.run;
    });
    try {
      await app.converse('Run the bound-names probe.');
    } catch (error) {
      probe.failure = error instanceof Error ? error.message : String(error);
    } finally {
      stop();
    }
  } finally {
    await app.dispose();
  }
  return probe;
}

/**
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
      const { run, failure } = await runProbe(pair, probe.program(declared), options);
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
