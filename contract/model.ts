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

/** A request as the gate records it: the system prompt in sections (the SDK in `tools:sdk`), chat messages. */
export interface ModelRequest {
  system: SystemSection[];
  tools: WireTool[];
  messages: ChatMessage[];
}

/** One block of a message written as content blocks. */
export type ContentBlock =
  | { type: 'text'; text: string }
  /** `arguments` as the model wrote them: JSON text, or the parsed value. */
  | { type: 'tool-call'; id: string; name: string; arguments: string | JsonValue }
  | { type: 'tool-result'; toolCallId: string; content: string | ContentBlock[]; isError?: boolean }
  /** Any other block (reasoning, an image) is no part of what the gate compares. */
  | { type: string; [key: string]: unknown };

/** A message of content blocks, as many agent frameworks keep their conversations. */
export interface BlockMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: ContentBlock[];
}

/**
 * A request as a backend may send it: the system prompt as sections with ids or as one string (its sections joined;
 * the gate finds the SDK in it as `concord check` does), the messages as chat messages or as content blocks. The gate
 * records it as a `ModelRequest`.
 */
export interface ModelRequestInput {
  system: SystemSection[] | string;
  tools: WireTool[];
  messages: ReadonlyArray<ChatMessage | BlockMessage>;
}

/** A final answer has no tool calls. */
export interface ModelResponse {
  content: string;
  toolCalls: ToolCall[];
}

/** What a plugin provides as `ctx.model`. */
export interface Model {
  complete(request: ModelRequestInput): Promise<ModelResponse>;
}
