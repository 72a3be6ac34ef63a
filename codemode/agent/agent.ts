import { type Context, Service } from 'cordis';
import { RUN_CODE_TOOL } from '../../contract/backend.js';
import { recordedResult } from '../../runtimes/seam/calls.js';
import type { JsonValue } from '../../runtimes/seam/types.js';
import { type ProgramRun, parseRunCodeArgs, type ToolCallRecord } from '../run-code/execute.js';
import '../tools/context.js';
import type { ChatMessage, ModelRequest, ToolCall, WireTool } from '../../contract/model.js';
import { type AgentConfig, parseAgentConfig } from './config.js';
import { formatRunResult, formatToolOutcome } from './result-text.js';
import { systemSections } from './sections.js';

/** Everything one `run` did: what the model was asked, what it said, and what ran. */
export interface Conversation {
  /** The user turn, then each assistant turn and the tool messages that answered its calls. */
  messages: ChatMessage[];
  /** Every request sent to the model, in order. */
  requests: ModelRequest[];
  /** Every `run_code` execution, in order, with its result and the tool calls its program made. */
  programs: ProgramRun[];
  /** Every tool the model called directly (modes native and both), in order. */
  toolCalls: ToolCallRecord[];
  /** The model's final answer; absent when the run stopped without one. */
  answer?: string;
}

/** The model kept calling tools past `maxTurns`; `conversation` holds everything up to that point. */
export class TurnLimitError extends Error {
  constructor(
    readonly conversation: Conversation,
    maxTurns: number,
  ) {
    super(
      `agent: the model gave no final answer within ${maxTurns} turns (raise maxTurns in the agent config if the task needs more)`,
    );
    this.name = 'TurnLimitError';
  }
}

/**
 * The agent loop as the `agent` service: sends the conversation to `ctx.model`, executes the tool calls
 * it answers with through `ctx.tools`, and feeds the results back until the model answers in words.
 */
export class Agent extends Service<AgentConfig> {
  static inject = ['tools', 'model'];
  /** cordis passes each entry's raw config through this before the plugin starts. */
  static Config = parseAgentConfig;

  /** The agent's own context, which injects `tools` and `model`; methods see the caller's as `this.ctx`. */
  private readonly home: Context;

  constructor(ctx: Context, config: AgentConfig | null) {
    // cordis restarts a plugin whose config was refused once the services it injects appear, with a null config.
    if (config === null)
      throw new Error('agent: not started because its config was refused (see the error reported for it)');
    super(ctx, 'agent');
    this.config = config;
    this.home = ctx;
  }

  async run(userText: string, signal?: AbortSignal): Promise<Conversation> {
    const { tools, model } = this.home;
    const system = systemSections(this.config.persona, tools.mode, () => tools.sdkSection());
    const wire = tools.wireTools();
    const conversation: Conversation = {
      messages: [{ role: 'user', content: userText }],
      requests: [],
      programs: [],
      toolCalls: [],
    };
    let callCount = 0;
    for (let turn = 1; turn <= this.config.maxTurns; turn++) {
      signal?.throwIfAborted();
      const request: ModelRequest = { system, tools: wire, messages: [...conversation.messages] };
      conversation.requests.push(request);
      const response = await model.complete(request);
      conversation.messages.push({ role: 'assistant', content: response.content, toolCalls: response.toolCalls });
      if (response.toolCalls.length === 0) {
        conversation.answer = response.content;
        return conversation;
      }
      for (const call of response.toolCalls) {
        const content = await this.answer(call, `call-${++callCount}`, wire, conversation, signal);
        conversation.messages.push({ role: 'tool', toolCallId: call.id, content });
      }
    }
    throw new TurnLimitError(conversation, this.config.maxTurns);
  }

  /** Executes one tool call and returns the text of the `tool` message that answers it. */
  private async answer(
    call: ToolCall,
    callId: string,
    wire: WireTool[],
    conversation: Conversation,
    signal?: AbortSignal,
  ): Promise<string> {
    const { tools } = this.home;
    if (!wire.some((tool) => tool.name === call.name)) {
      return `error: no tool named ${JSON.stringify(call.name)} is offered (offered: ${wire.map((tool) => tool.name).join(', ')})`;
    }
    if (call.name === RUN_CODE_TOOL) {
      let args;
      try {
        args = parseRunCodeArgs(call.arguments);
      } catch (error) {
        return `error: ${(error as Error).message}`;
      }
      const run = await tools.runCode(args, callId, signal);
      conversation.programs.push(run);
      return formatRunResult(run.result);
    }
    // The arguments stay in the transcript as the model sent them, whatever the tool does with its copy.
    const record: ToolCallRecord = { id: callId, tool: call.name, args: call.arguments };
    conversation.toolCalls.push(record);
    try {
      // A result that is not JSON reaches the model as the error saying so, never as a crash of the turn.
      Object.assign(
        record,
        recordedResult(
          await tools.execute(call.name, structuredClone(call.arguments) as JsonValue),
          'tools',
          call.name,
        ),
      );
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    }
    return formatToolOutcome(record);
  }
}
