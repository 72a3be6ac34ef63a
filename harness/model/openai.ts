import type { ModelRequest, ModelResponse, ToolCall } from '../../contract/model.js';
import type { JsonValue } from '../../runtimes/seam/types.js';

export interface EndpointOptions {
  /** e.g. `https://api.example.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  apiKey?: string;
  model: string;
}

/** Reads the endpoint from the environment: CONCORD_MODEL_BASE_URL, CONCORD_MODEL_API_KEY, CONCORD_MODEL_NAME. */
export function endpointFromEnv(env: NodeJS.ProcessEnv = process.env): EndpointOptions {
  const baseUrl = env.CONCORD_MODEL_BASE_URL;
  const model = env.CONCORD_MODEL_NAME;
  if (!baseUrl || !model) {
    throw new Error('record mode needs CONCORD_MODEL_BASE_URL (an OpenAI-compatible endpoint, e.g. https://host/v1) and CONCORD_MODEL_NAME; CONCORD_MODEL_API_KEY is sent as a bearer token when set');
  }
  return { baseUrl, model, ...(env.CONCORD_MODEL_API_KEY ? { apiKey: env.CONCORD_MODEL_API_KEY } : {}) };
}

/** Asks an OpenAI-compatible chat-completions endpoint for one answer. */
export async function completeOverHttp(endpoint: EndpointOptions, request: ModelRequest): Promise<ModelResponse> {
  const url = endpoint.baseUrl.replace(/\/+$/, '') + '/chat/completions';
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}) },
    body: JSON.stringify(toChatCompletion(endpoint.model, request)),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return fromChatCompletion(url, text);
}

function toChatCompletion(model: string, request: ModelRequest): unknown {
  const system = request.system.map((s) => s.text).join('\n\n');
  const messages = request.messages.map((m) => {
    if (m.role === 'user') return { role: 'user', content: m.content };
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    return {
      role: 'assistant',
      content: m.content,
      ...(m.toolCalls.length > 0
        ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) }
        : {}),
    };
  });
  return {
    model,
    messages: [{ role: 'system', content: system }, ...messages],
    tools: request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })),
  };
}

function fromChatCompletion(url: string, text: string): ModelResponse {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${url} answered with something that is not JSON: ${text.slice(0, 200)}`);
  }
  const message = body?.choices?.[0]?.message;
  if (typeof message !== 'object' || message === null) throw new Error(`${url}: the answer has no choices[0].message`);
  const toolCalls: ToolCall[] = ((message.tool_calls ?? []) as any[]).map((call, i) => {
    const raw = call?.function?.arguments;
    let args: JsonValue;
    try {
      args = typeof raw === 'string' ? (JSON.parse(raw) as JsonValue) : (raw as JsonValue);
    } catch {
      throw new Error(`${url}: choices[0].message.tool_calls[${i}].function.arguments is not JSON: ${String(raw).slice(0, 200)}`);
    }
    return { id: String(call?.id ?? `call-${i + 1}`), name: String(call?.function?.name), arguments: args };
  });
  return { content: typeof message.content === 'string' ? message.content : '', toolCalls };
}
