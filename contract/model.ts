import type { JsonValue } from '../runtimes/seam/types.js';

/** A section of the system prompt, kept apart by id so snapshots and checks can name it. */
export interface SystemSection {
  /** e.g. `persona`, `code-only`, `tools:sdk`. */
  id: string;
  text: string;
}

/** A tool as it goes over the wire to the model. */
export interface WireTool {
  name: string;
  description: string;
  parameters: JsonValue;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: JsonValue;
}

export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface ModelRequest {
  system: SystemSection[];
  tools: WireTool[];
  messages: ChatMessage[];
}

/** A final answer has no tool calls. */
export interface ModelResponse {
  content: string;
  toolCalls: ToolCall[];
}

/** What a plugin provides as `ctx.model`. */
export interface Model {
  complete(request: ModelRequest): Promise<ModelResponse>;
}
