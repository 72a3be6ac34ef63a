import type { CodeRuntime, JsonValue } from '../runtimes/seam/types.js';
import type { Model } from './model.js';

/** The id of the system section that holds the SDK the model reads; the gate snapshots and checks it. */
export const TOOLS_SDK_SECTION = 'tools:sdk';

/** The one wire tool of Code Mode; its `code` argument is the program the runtime runs. */
export const RUN_CODE_TOOL = 'run_code';

/** A tool as the model sees it: the input of an SDK renderer. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: unknown;
  /** JSON Schema of the result; absent means unknown. */
  output?: unknown;
}

/** A tool a plugin registers: its definition and what runs when a program calls it. */
export interface RegisteredTool extends ToolDefinition {
  execute(args: JsonValue): Promise<JsonValue>;
}

/**
 * `ctx.tools`, provided by the backend: the gate registers its own probe tools through it (the
 * renderer-floor fixture) and reads what the renderer made of them from the `tools:sdk` section.
 */
export interface ToolRegistryService {
  /** Adds a tool; the returned function removes it again. */
  register(tool: RegisteredTool): () => void;
}

/** `ctx.agent`, provided by the backend: one conversation per call, starting from the user's text. */
export interface AgentService {
  run(userText: string): Promise<unknown>;
}

/**
 * The services of an app the gate boots, by cordis name. The gate provides `model` (its keyless model) and
 * `codeRuntime` (the runtime of the scenario × runtime pair); the backend provides `tools` and `agent`.
 */
export interface GatedServices {
  model: Model;
  codeRuntime: CodeRuntime;
  tools: ToolRegistryService;
  agent: AgentService;
}
