import { RUN_CODE_TOOL } from '../../contract/backend.js';
import { observeRuns } from '../../runtimes/seam/observe.js';
import type { RunRequest, RunResult } from '../../runtimes/seam/types.js';
import { bootApp } from '../assembly/hosted.js';
import type { RuntimeTarget } from '../assembly/runtimes.js';
import { cannedAnswers, GateModel } from '../model/keyless.js';
import type { Scenario } from '../scenario/types.js';

export interface RunInAppOptions {
  /** The `description` of the `run_code` call, as the model would write it. */
  description: string;
  /** The program's time budget, whatever the scenario gives its runtime. */
  timeoutMs?: number;
  /** Puts something between the booted runtime and the program (tests use it to build a leaking runtime). */
  wrap?: (request: RunRequest, run: (request: RunRequest) => Promise<RunResult>) => Promise<RunResult>;
}

/** What one program run inside an app gave: the run as it crossed the runtime seam, or why none did. */
export interface AppRun {
  run?: RunResult;
  failure?: string;
}

/**
 * Boots the scenario's app (its assembly or the project's host) on `runtime` with a model that asks for one
 * `run_code` call holding `code`, so the program takes the backend's own path from its agent to the code runtime,
 * with the app's own tools bound; the result is read at the runtime seam.
 */
export async function runInApp(
  scenario: Scenario,
  runtime: RuntimeTarget,
  code: string,
  options: RunInAppOptions,
): Promise<AppRun> {
  const responses = [
    {
      content: '',
      toolCalls: [{ id: 'call-1', name: RUN_CODE_TOOL, arguments: { code, description: options.description } }],
    },
    { content: 'done', toolCalls: [] },
  ];
  const model = new GateModel(cannedAnswers(responses));
  const modelConfig = { scenario: scenario.file, language: runtime.language };
  const app = await bootApp({ scenario, runtime, model, modelConfig });
  const ran: AppRun = {};
  try {
    const stop = observeRuns(app.codeRuntime, async (request, next) => {
      const budgeted = options.timeoutMs === undefined ? request : { ...request, timeoutMs: options.timeoutMs };
      ran.run = await (options.wrap ? options.wrap(budgeted, next) : next(budgeted));
      return ran.run;
    });
    try {
      await app.converse(`Run this program: ${options.description}.`);
    } catch (error) {
      ran.failure = error instanceof Error ? error.message : String(error);
    } finally {
      stop();
    }
  } finally {
    await app.dispose();
  }
  return ran;
}
