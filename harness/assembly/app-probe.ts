import { type RegisteredTool, RUN_CODE_TOOL, TOOLS_SDK_SECTION, type ToolDefinition } from '../../contract/backend.js';
import type { ModelRequest, WireTool } from '../../contract/model.js';
import { readSdkSection } from '../../contract/sdk-section.js';
import type { JsonValue } from '../../runtimes/seam/types.js';
import { cannedAnswers, GateModel } from '../model/keyless.js';
import type { Scenario } from '../scenario/types.js';
import { bootApp, type GateApp } from './hosted.js';
import type { RuntimeTarget } from './runtimes.js';

/** The user turn of a probe: the model answers it at once, so only the first request matters. */
const PROBE_USER_TEXT = 'Describe the tools you can call.';
/** What the probe's model answers every request with. */
const PROBE_ANSWER = 'Nothing to do.';

/** What the model received for one tool set: the SDK it would read and the `run_code` tool it could call. */
export interface ProbeView {
  /** The first request, verbatim. */
  request: ModelRequest;
  /** The text of the `tools:sdk` section; absent when the app sent none (a native-only mode). */
  section?: string;
  /** The code of the section's SDK block, when it has exactly one. */
  sdk?: string;
  /** The info string of the block's fence. */
  fence?: string;
  /** Why the section has no SDK block (none, several, or one never closed), naming the fences found. */
  sectionProblem?: string;
  runCode?: WireTool;
  /**
   * The tools the registry refused (a name the app already has, say), with its reason; the rest were in the request.
   */
  refused: Array<{ name: string; reason: string }>;
}

/**
 * A project's own app, booted for one scenario × runtime with a model that answers every request at once: tool sets go
 * in through `ctx.tools.register` (the backend contract) and come back as the model would see them. Nothing
 * of the backend is read but what crosses the model seam, so a foreign renderer is judged like concord's.
 */
export class AppProbe {
  private constructor(
    readonly scenario: Scenario,
    readonly runtime: RuntimeTarget,
    private readonly app: GateApp,
    private readonly model: GateModel,
  ) {}

  /** Boots the scenario's app on `runtime` (as its pairs are booted); throws what the boot throws. */
  static async boot(scenario: Scenario, runtime: RuntimeTarget): Promise<AppProbe> {
    const model = new GateModel(cannedAnswers([], { content: PROBE_ANSWER, toolCalls: [] }));
    const modelConfig = { scenario: scenario.file, language: runtime.language };
    return new AppProbe(scenario, runtime, await bootApp({ scenario, runtime, model, modelConfig }), model);
  }

  /**
   * Registers `tools` beside the app's own, drives the agent once, and removes them again. The probe tools
   * answer every call with their arguments; a probe never runs a program. A tool the registry refuses (the
   * app has one of that name) is left out and reported.
   */
  async view(tools: readonly ToolDefinition[]): Promise<ProbeView> {
    const { app, model } = this;
    const removers: Array<() => void> = [];
    const before = model.exchanges.length;
    const refused: ProbeView['refused'] = [];
    try {
      for (const tool of tools) {
        const registered: RegisteredTool = { ...tool, execute: async (args: JsonValue) => args };
        try {
          removers.push(app.registerTool(registered));
        } catch (error) {
          refused.push({ name: tool.name, reason: error instanceof Error ? error.message : String(error) });
        }
      }
      await app.converse(PROBE_USER_TEXT);
    } finally {
      for (const remove of removers.reverse()) remove();
    }
    const exchange = model.exchanges[before];
    if (exchange === undefined) throw new Error(`the agent of ${this.scenario.file} sent the model no request`);
    const { request } = exchange;
    const section = request.system.find((s) => s.id === TOOLS_SDK_SECTION)?.text;
    const read = section === undefined ? undefined : readSdkSection(section);
    const runCode = request.tools.find((t) => t.name === RUN_CODE_TOOL);
    return {
      request,
      refused,
      ...(section !== undefined ? { section } : {}),
      ...(read?.block ? { sdk: read.block.body, fence: read.block.info } : {}),
      ...(read?.problem !== undefined ? { sectionProblem: read.problem } : {}),
      ...(runCode ? { runCode } : {}),
    };
  }

  dispose(): Promise<void> {
    return this.app.dispose();
  }
}

/** Boots `scenario` on `runtime`, takes one view of `tools`, and disposes the app. */
export async function probeOnce(
  scenario: Scenario,
  runtime: RuntimeTarget,
  tools: readonly ToolDefinition[],
): Promise<ProbeView> {
  const probe = await AppProbe.boot(scenario, runtime);
  try {
    return await probe.view(tools);
  } finally {
    await probe.dispose();
  }
}
