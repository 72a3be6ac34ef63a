import {
  type AgentService,
  type BindingFunction,
  type ChatMessage,
  type CodeRuntime,
  type JsonValue,
  type Model,
  RUN_CODE_TOOL,
  TOOLS_SDK_SECTION,
  type WireTool,
} from 'concord/contract';
import type { NaiveRegistry } from './registry.js';

interface AgentConfig {
  persona?: string;
  maxTurns?: number;
}

const RUN_CODE: WireTool = {
  name: RUN_CODE_TOOL,
  description: 'Runs one Python program that calls the tools of the SDK section and returns a JSON value.',
  parameters: {
    type: 'object',
    properties: {
      code: {
        type: 'string',
        description: 'The body of an async Python function: await tools.name({...}) and return the result.',
      },
      description: { type: 'string', description: 'What the program does, in a few words.' },
    },
    required: ['code', 'description'],
    additionalProperties: false,
  },
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function createAgent(tools: NaiveRegistry, model: Model, runtime: CodeRuntime, config: AgentConfig): AgentService {
  const persona = config.persona ?? 'You are a helpful assistant.';
  const maxTurns = config.maxTurns ?? 8;

  async function runCode(args: JsonValue): Promise<string> {
    if (!isObject(args) || typeof args.code !== 'string')
      return JSON.stringify({ error: 'run_code needs a string "code"' });
    const functions = new Map<string, BindingFunction>(
      tools.tools().map((tool) => [tool.name, (toolArgs) => tools.call(tool.name, toolArgs)]),
    );
    const result = await runtime.run({
      program: args.code,
      bindings: [{ name: 'tools', functions, errorClass: { name: 'ToolCallError', memberProperty: 'toolName' } }],
    });
    return JSON.stringify(result);
  }

  return {
    async run(userText) {
      const messages: ChatMessage[] = [{ role: 'user', content: userText }];
      for (let turn = 0; turn < maxTurns; turn++) {
        const system = [
          { id: 'persona', text: persona },
          { id: TOOLS_SDK_SECTION, text: tools.sdkSection() },
        ];
        const response = await model.complete({ system, tools: [RUN_CODE], messages: [...messages] });
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
      throw new Error(`naive agent: no final answer within ${maxTurns} turns`);
    },
  };
}

/** A cordis plugin that provides `ctx.agent`, on this backend's registry, the gate's model and the mounted runtime. */
export default {
  name: 'naive-agent',
  inject: ['tools', 'model', 'codeRuntime'],
  apply(
    ctx: {
      tools: NaiveRegistry;
      model: Model;
      codeRuntime: CodeRuntime;
      set(name: string, value: unknown): () => void;
    },
    config: AgentConfig | undefined,
  ) {
    ctx.set('agent', createAgent(ctx.tools, ctx.model, ctx.codeRuntime, config ?? {}));
  },
};
