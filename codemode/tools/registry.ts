import { type Context, Service } from 'cordis';
import { RUN_CODE_TOOL } from '../../contract/backend.js';
import type { WireTool } from '../../contract/model.js';
import type { JsonValue, Language } from '../../runtimes/seam/types.js';
import { type ProgramRun, type RunCodeArgs, runProgram } from '../run-code/execute.js';
import { renderSdkSection } from '../run-code/sdk-section.js';
import { runCodeWireTool } from '../run-code/wire-tool.js';
import { parseToolsConfig, type ToolMode, type ToolsConfig } from './config.js';
import type { RegisteredTool } from './types.js';
import './context.js';

/** The language schemas are listed in when no code runtime is mounted. */
const FALLBACK_LANGUAGE: Language = 'typescript';

/** Unknown-tool errors list the registered names up to this many; past it they give the count. */
const NAMES_LISTED_IN_ERRORS = 20;

/**
 * The tools of a concord app, as the `tools` service. Plugins register tools into it; it projects them
 * for the model (wire tools, the `tools:sdk` section) in the language of the mounted code runtime, and
 * executes tool calls and `run_code` programs.
 */
export class ToolRegistry extends Service<ToolsConfig> {
  static inject = { codeRuntime: { required: false } };
  /** cordis passes each entry's raw config through this before the plugin starts. */
  static Config = parseToolsConfig;

  private readonly tools = new Map<string, RegisteredTool>();
  /** The registry's own context: service methods see the caller's context as `this.ctx`. */
  private readonly home: Context;

  constructor(ctx: Context, config: ToolsConfig) {
    super(ctx, 'tools');
    this.config = config;
    this.home = ctx;
  }

  get mode(): ToolMode {
    return this.config.mode;
  }

  /**
   * Adds a tool; the returned function removes it. Called through a plugin's `ctx.tools`, the tool is
   * also removed when that plugin is disposed.
   */
  register(tool: RegisteredTool): () => void {
    checkTool(tool);
    if (this.tools.has(tool.name)) throw new Error(`tools: a tool named "${tool.name}" is already registered`);
    return this.ctx.effect(() => {
      this.tools.set(tool.name, tool);
      return () => {
        if (this.tools.get(tool.name) === tool) this.tools.delete(tool.name);
      };
    });
  }

  /** Every registered tool, sorted by name in code-unit order. */
  list(): RegisteredTool[] {
    return [...this.tools.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The language of the mounted code runtime; TypeScript when none is mounted. */
  get language(): Language {
    return this.home.get('codeRuntime')?.language ?? FALLBACK_LANGUAGE;
  }

  /** The `tools:sdk` section: every tool's SDK in the mounted runtime's language, fenced in that language. */
  sdkSection(): string {
    return renderSdkSection(this.language, this.list(), { pythonFloor: this.config.pythonFloor });
  }

  /** The tools offered to the model in this mode. */
  wireTools(): WireTool[] {
    const native = this.mode === 'code' ? [] : this.list().map(toWireTool);
    return this.mode === 'native' ? native : [runCodeWireTool(this.language, this.config.runCodeText), ...native];
  }

  /** Calls a registered tool; a rejection carries the tool's own message. */
  async execute(name: string, args: JsonValue): Promise<JsonValue> {
    const tool = this.tools.get(name);
    if (tool === undefined)
      throw new Error(`tools: no tool named ${JSON.stringify(name)} (${this.describeRegistered()})`);
    return tool.execute(args);
  }

  /** Executes a `run_code` call on the mounted runtime; `callId` prefixes the ids of its tool calls. */
  async runCode(args: RunCodeArgs, callId: string, signal?: AbortSignal): Promise<ProgramRun> {
    if (this.mode === 'native') throw new Error(`${RUN_CODE_TOOL}: not offered in mode native (use mode code or both)`);
    const runtime = this.home.get('codeRuntime');
    if (runtime === undefined) {
      throw new Error(
        `${RUN_CODE_TOOL}: no code runtime is mounted (add a runtime plugin that provides ctx.codeRuntime)`,
      );
    }
    const names = this.list().map((tool) => tool.name);
    return runProgram(runtime, names, (name, toolArgs) => this.execute(name, toolArgs), args, callId, signal);
  }

  private describeRegistered(): string {
    const names = this.list().map((tool) => tool.name);
    if (names.length === 0) return 'no tools are registered';
    if (names.length > NAMES_LISTED_IN_ERRORS) return `${names.length} tools are registered`;
    return `registered: ${names.join(', ')}`;
  }
}

function checkTool(tool: RegisteredTool): void {
  const label = typeof tool?.name === 'string' ? `tools: tool ${JSON.stringify(tool.name)}` : 'tools: a tool';
  if (typeof tool?.name !== 'string' || tool.name === '') throw new Error(`${label} needs a non-empty string name`);
  if (tool.name === RUN_CODE_TOOL) throw new Error(`${label}: the name is reserved for the code tool; rename the tool`);
  if (typeof tool.description !== 'string') throw new Error(`${label} needs a string description`);
  if (typeof tool.execute !== 'function') throw new Error(`${label} needs an execute(args) function`);
}

function toWireTool(tool: RegisteredTool): WireTool {
  // Tool schemas travel to the model as given; unsupported parts only degrade in the SDK.
  return { name: tool.name, description: tool.description, parameters: tool.parameters as JsonValue };
}
