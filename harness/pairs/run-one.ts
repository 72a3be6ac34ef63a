import type { CodeRuntime } from '../../runtimes/seam/types.js';
import { bootApp } from '../assembly/hosted.js';
import type { RuntimeTarget } from '../assembly/runtimes.js';
import { recordRuntimeSeam } from '../assembly/seam-recorder.js';
import { type KeylessModelConfig, keylessAnswers } from '../model/answers.js';
import { GateModel } from '../model/keyless.js';
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

export interface RunOneOptions {
  /** The token of a live model the session holds, which answers instead of the script. */
  live?: string;
  /** Told what the run waits for as it enters each phase (for a live line on a terminal). */
  phase?: (waitingFor: string) => void;
}

/**
 * Boots one scenario × runtime (through the project's host, or concord's own assembly), drives the conversation with
 * the keyless model, and returns what happened (a live model given by `options.live` answers instead of the script).
 * Failures of the run itself (a script mismatch, a turn limit) end up in `record.failure`; failures to boot are thrown.
 */
export async function runOne(scenario: Scenario, runtime: RuntimeTarget, options: RunOneOptions = {}): Promise<OneRun> {
  const phase = options.phase ?? (() => {});
  const times: PhaseTimes = { assembly: 0, model: 0, runtime: 0, checks: 0 };
  let started = performance.now();
  const modelConfig: KeylessModelConfig = {
    scenario: scenario.file,
    language: runtime.language,
    ...(options.live !== undefined ? { live: options.live } : {}),
  };
  runtime.session?.handOver(scenario, runtime.language);
  const model = new GateModel(keylessAnswers(modelConfig, runtime.session));
  phase('the app to boot (its plugins to become active)');
  const app = await bootApp({ scenario, runtime, model, modelConfig: { ...modelConfig } });
  times.assembly = performance.now() - started;
  try {
    const { codeRuntime } = app;
    // Everything recorded comes from the two seams the gate owns: the model's requests and the runtime's runs.
    if (codeRuntime.start) {
      phase(`the ${runtime.name} runtime to start`);
      started = performance.now();
      await codeRuntime.start();
      times.boot = performance.now() - started;
    }
    const seam = recordRuntimeSeam(codeRuntime);
    started = performance.now();
    let failure: string | undefined;
    phase("the conversation: the model's answers and the programs they run");
    try {
      await app.converse(scenario.script[0]!.text);
      if (!model.finished) failure = 'the agent stopped before the script reached its final answer';
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    } finally {
      seam.stop();
    }
    const total = performance.now() - started;
    times.model = model.elapsedMs;
    // The agent's own bookkeeping is negligible: what is not the model is the runtime and the tools.
    times.runtime = Math.max(0, total - model.elapsedMs);
    if (app.errors !== undefined && app.errors.length > 0)
      failure = [failure, `cordis reported: ${app.errors.join('; ')}`].filter(Boolean).join('; ');
    return { record: recordOf(scenario, runtime, codeRuntime, app.assembly, model, seam.runs, failure), times };
  } finally {
    phase('the app to stop');
    started = performance.now();
    await app.dispose();
    times.assembly += performance.now() - started;
  }
}

/** The record of one run: what crossed the model seam and the runtime seam, and why it stopped short if it did. */
function recordOf(
  scenario: Scenario,
  runtime: RuntimeTarget,
  codeRuntime: CodeRuntime,
  entries: readonly unknown[],
  model: GateModel,
  programs: RunRecord['programs'],
  failure: string | undefined,
): RunRecord {
  // The final answer is the model's last response, when it called no tool: seen at the model seam.
  const last = model.exchanges.at(-1)?.response;
  const answer = last && last.toolCalls.length === 0 ? last.content : undefined;
  return {
    scenario: scenario.name,
    runtime: runtime.name,
    language: runtime.language,
    isolation: codeRuntime.isolation,
    seamLanguage: codeRuntime.language,
    entries,
    exchanges: model.exchanges,
    programs,
    ...(answer !== undefined ? { answer } : {}),
    ...(failure !== undefined ? { failure } : {}),
  };
}
