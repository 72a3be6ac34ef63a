import type { AgentService } from '../../contract/backend.js';
import type { CodeRuntime } from '../../runtimes/seam/types.js';
import { assemble, bootAssembly, composeEntries, type ModelEntryConfig } from '../assembly/assemble.js';
import type { BootedApp } from '../assembly/boot.js';
import type { RuntimeTarget } from '../assembly/runtimes.js';
import { recordRuntimeSeam } from '../assembly/seam-recorder.js';
import type KeylessModel from '../model/plugin.js';
import type { Scenario } from '../scenario/types.js';
import type { RunRecord } from '../snapshot/transcript.js';

/** Milliseconds per phase of one scenario × runtime. */
export interface PhaseTimes {
  assembly: number;
  /**
   * Starting the runtime's interpreter before the first run (a Pyodide boot), for runtimes that start one; for
   * a Python pair in a gate, also the wait for the stub matrix's interpreters the session started.
   */
  boot?: number;
  model: number;
  runtime: number;
  checks: number;
}

export interface OneRun {
  record: RunRecord;
  times: PhaseTimes;
}

/**
 * Assembles and boots one scenario × runtime, drives the agent with the keyless model, and returns what
 * happened (a live model given by `model.live` answers instead of the script). Failures of the run itself (a script
 * mismatch, a turn limit) end up in `record.failure`;
 * failures to assemble or boot are thrown.
 */
export async function runOne(
  scenario: Scenario,
  runtime: RuntimeTarget,
  model: Partial<ModelEntryConfig> = {},
): Promise<OneRun> {
  const times: PhaseTimes = { assembly: 0, model: 0, runtime: 0, checks: 0 };
  let started = performance.now();
  const assembly = await assemble(composeEntries(scenario, runtime, model));
  runtime.session?.handOver(scenario, runtime.language);
  const app: BootedApp = await bootAssembly(assembly, runtime.session);
  times.assembly = performance.now() - started;
  try {
    const keyless = app.service<KeylessModel>('model');
    const agent = app.service<AgentService>('agent');
    const codeRuntime = app.service<CodeRuntime>('codeRuntime');
    const user = scenario.script[0]!.text;
    // Everything recorded comes from the two seams the gate owns: the model's requests and the runtime's runs.
    if (codeRuntime.start) {
      started = performance.now();
      await codeRuntime.start();
      times.boot = performance.now() - started;
    }
    const seam = recordRuntimeSeam(codeRuntime);
    started = performance.now();
    let failure: string | undefined;
    try {
      await agent.run(user);
      if (!keyless.finished) failure = 'the agent stopped before the script reached its final answer';
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    } finally {
      seam.stop();
    }
    const total = performance.now() - started;
    times.model = keyless.elapsedMs;
    // The agent's own bookkeeping is negligible: what is not the model is the runtime and the tools.
    times.runtime = Math.max(0, total - keyless.elapsedMs);
    if (app.errors.length > 0)
      failure = [failure, `cordis reported: ${app.errors.join('; ')}`].filter(Boolean).join('; ');
    // The final answer is the model's last response, when it called no tool: seen at the model seam.
    const last = keyless.exchanges.at(-1)?.response;
    const answer = last && last.toolCalls.length === 0 ? last.content : undefined;
    const record: RunRecord = {
      scenario: scenario.name,
      runtime: runtime.name,
      language: runtime.language,
      isolation: codeRuntime.isolation,
      seamLanguage: codeRuntime.language,
      entries: assembly.entries,
      exchanges: keyless.exchanges,
      programs: seam.runs,
      ...(answer !== undefined ? { answer } : {}),
      ...(failure !== undefined ? { failure } : {}),
    };
    return { record, times };
  } finally {
    started = performance.now();
    await app.dispose();
    times.assembly += performance.now() - started;
  }
}
