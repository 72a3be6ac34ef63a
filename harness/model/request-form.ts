import { TOOLS_SDK_SECTION } from '../../contract/backend.js';
import type {
  BlockMessage,
  ChatMessage,
  ContentBlock,
  ModelRequest,
  ModelRequestInput,
  SystemSection,
  ToolCall,
} from '../../contract/model.js';
import type { JsonValue } from '../../runtimes/seam/types.js';
import { systemTextSdk } from '../readers/system-text.js';

/** The id a system prompt sent as one string is kept under when it holds no SDK. */
const SYSTEM_TEXT = 'system';

/**
 * A request as the gate records it, whatever form the backend sent: a system prompt of one string becomes one section
 * (`tools:sdk` when it holds the SDK, found as `concord check` finds it; else `system`), and messages of content
 * blocks become chat messages (text joined, tool calls with their arguments parsed, each tool result a `tool` turn).
 */
export function recordedRequest(input: ModelRequestInput): ModelRequest {
  return {
    system: typeof input.system === 'string' ? systemSections(input.system) : input.system,
    tools: input.tools,
    messages: input.messages.flatMap(chatMessages),
  };
}

function systemSections(text: string): SystemSection[] {
  const sdk = systemTextSdk(text);
  return [sdk?.read.block === undefined ? { id: SYSTEM_TEXT, text } : { id: TOOLS_SDK_SECTION, text: sdk.section }];
}

const isBlockMessage = (message: ChatMessage | BlockMessage): message is BlockMessage => Array.isArray(message.content);

/** The chat messages a message stands for: itself, or its blocks read as a turn (and a turn per tool result). */
function chatMessages(message: ChatMessage | BlockMessage): ChatMessage[] {
  if (!isBlockMessage(message)) return [message];
  const text = textOf(message.content);
  if (message.role === 'assistant')
    return [{ role: 'assistant', content: text, toolCalls: toolCallsOf(message.content) }];
  const results = message.content.flatMap((block) =>
    block.type === 'tool-result' ? [block as Extract<ContentBlock, { type: 'tool-result' }>] : [],
  );
  const turns: ChatMessage[] = results.map((result) => ({
    role: 'tool',
    toolCallId: result.toolCallId,
    content: typeof result.content === 'string' ? result.content : textOf(result.content),
  }));
  if (text !== '' || results.length === 0) turns.unshift({ role: 'user', content: text });
  return turns;
}

/** The text blocks of a message, joined. */
function textOf(blocks: readonly ContentBlock[]): string {
  return blocks.flatMap((block) => (block.type === 'text' ? [(block as { text: string }).text] : [])).join('');
}

/** The tool-call blocks of an assistant message, their arguments parsed when the model wrote them as JSON text. */
function toolCallsOf(blocks: readonly ContentBlock[]): ToolCall[] {
  return blocks.flatMap((block) => {
    if (block.type !== 'tool-call') return [];
    const call = block as Extract<ContentBlock, { type: 'tool-call' }>;
    return [{ id: call.id, name: call.name, arguments: parsedArguments(call.arguments) }];
  });
}

function parsedArguments(written: string | JsonValue): JsonValue {
  if (typeof written !== 'string') return written;
  try {
    return JSON.parse(written) as JsonValue;
  } catch {
    // Arguments that are no JSON are compared as the text they are: the script then names the difference.
    return written;
  }
}
