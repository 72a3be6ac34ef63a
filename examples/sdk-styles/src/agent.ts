import {
  type AgentService,
  type BindingFunction,
  type ChatMessage,
  type CodeRuntime,
  type JsonValue,
  type Language,
  type Model,
  RUN_CODE_TOOL,
  TOOLS_SDK_SECTION,
  type WireTool,
} from 'concord/contract';
import type { StyledRegistry } from './registry.js';

interface AgentConfig {
  persona?: string;
  maxTurns?: number;
}

/** What this backend says of run_code in each language the mounted runtime may speak. */
const RUN_CODE_TEXT: Readonly<
  Record<Language, { tool: string; code: string; error: { name: string; memberProperty: string } }>
> = {
  python: {
    tool: 'Runs a Python program that calls the tools of the tools:sdk section and returns what it returns.',
    code: 'Python: the body of an async function that awaits tools.name(args) and returns a JSON value.',
    error: { name: 'ToolCallError', memberProperty: 'tool_name' },
  },
  typescript: {
    tool: 'Runs a TypeScript program that calls the tools of the tools:sdk section and returns what it returns.',
    code: 'TypeScript: the body of an async function that awaits tools.name(args) and returns a JSON value.',
    error: { name: 'ToolCallError', memberProperty: 'toolName' },
  },
};

function runCodeTool(language: Language): WireTool {
  const text = RUN_CODE_TEXT[language];
  return {
    name: RUN_CODE_TOOL,
    description: text.tool,
    parameters: {
      type: 'object',
      properties: {
        code: { type: 'string', description: text.code },
        description: { type: 'string', description: 'What the program does, in a few words.' },
      },
      required: ['code', 'description'],
      additionalProperties: false,
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function createAgent(tools: StyledRegistry, model: Model, runtime: CodeRuntime, config: AgentConfig): AgentService {
  const persona = config.persona ?? 'You are a helpful assistant.';
  const maxTurns = config.maxTurns ?? 8;
  const { language } = runtime;

  async function runCode(args: JsonValue): Promise<string> {
    if (!isObject(args) || typeof args.code !== 'string')
      return JSON.stringify({ error: 'run_code needs a string "code"' });
    const functions = new Map<string, BindingFunction>(
      tools.tools().map((tool) => [tool.name, (toolArgs) => tools.call(tool.name, toolArgs)]),
    );
    const result = await runtime.run({
      program: args.code,
      bindings: [{ name: 'tools', functions, errorClass: RUN_CODE_TEXT[language].error }],
    });
    return JSON.stringify(result);
  }

  return {
    async run(userText) {
      const messages: ChatMessage[] = [{ role: 'user', content: userText }];
      for (let turn = 0; turn < maxTurns; turn++) {
        const system = [
          { id: 'persona', text: persona },
          { id: TOOLS_SDK_SECTION, text: tools.sdkSection(language) },
        ];
        const response = await model.complete({ system, tools: [runCodeTool(language)], messages: [...messages] });
        messages.push({ role: 'assistant', content: response.content, toolCalls: response.toolCalls });
        if (response.toolCalls.length === 0) return response.content;
        for (const call of response.toolCalls) {
          const content =
            call.name === RUN_CODE_TOOL
              ? await runCode(call.arguments)
              : JSON.stringify({ error: `no tool named ${call.name}` });
          messages.push({ role: 'tool', toolCallId: call.id, content });
        }
      }
      throw new Error(`styled agent: no final answer within ${maxTurns} turns`);
    },
  };
}

/** A cordis plugin that provides `ctx.agent`, on this backend's registry, the gate's model and the mounted runtime. */
export default {
  name: 'styled-agent',
  inject: ['tools', 'model', 'codeRuntime'],
  apply(
    ctx: {
      tools: StyledRegistry;
      model: Model;
      codeRuntime: CodeRuntime;
      set(name: string, value: unknown): () => void;
    },
    config: AgentConfig | undefined,
  ) {
    ctx.set('agent', createAgent(ctx.tools, ctx.model, ctx.codeRuntime, config ?? {}));
  },
};
