import {
  type AgentService,
  type RegisteredTool,
  RUN_CODE_TOOL,
  TOOLS_SDK_SECTION,
  type ToolDefinition,
  type ToolRegistryService,
} from '../../contract/backend.js';
import type { ModelRequest, WireTool } from '../../contract/model.js';
import { readSdkSection } from '../../contract/sdk-section.js';
import type { JsonValue } from '../../runtimes/seam/types.js';
import type CannedModel from '../model/canned.js';
import type { Scenario } from '../scenario/types.js';
import { assemble, bootAssembly, CANNED_MODEL_PLUGIN, composeWithModel } from './assemble.js';
import type { BootedApp } from './boot.js';
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
    private readonly app: BootedApp,
  ) {}

  /** Assembles and boots the scenario's composition on `runtime`; throws what the boot throws. */
  static async boot(scenario: Scenario, runtime: RuntimeTarget): Promise<AppProbe> {
    const assembly = await assemble(
      composeWithModel(scenario, runtime, {
        plugin: CANNED_MODEL_PLUGIN,
        config: { responses: [], otherwise: { content: PROBE_ANSWER, toolCalls: [] } },
      }),
    );
    return new AppProbe(scenario, runtime, await bootAssembly(assembly, runtime.session));
  }

  /**
   * Registers `tools` beside the app's own, drives the agent once, and removes them again. The probe tools
   * answer every call with their arguments; a probe never runs a program. A tool the registry refuses (the
   * app has one of that name) is left out and reported.
   */
  async view(tools: readonly ToolDefinition[]): Promise<ProbeView> {
    const registry = this.app.service<ToolRegistryService>('tools');
    const agent = this.app.service<AgentService>('agent');
    const model = this.app.service<CannedModel>('model');
    const removers: Array<() => void> = [];
    const before = model.exchanges.length;
    const refused: ProbeView['refused'] = [];
    try {
      for (const tool of tools) {
        const registered: RegisteredTool = { ...tool, execute: async (args: JsonValue) => args };
        try {
          removers.push(registry.register(registered));
        } catch (error) {
          refused.push({ name: tool.name, reason: error instanceof Error ? error.message : String(error) });
        }
      }
      await agent.run(PROBE_USER_TEXT);
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
