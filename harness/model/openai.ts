import type { ModelRequest, ModelResponse, ToolCall } from '../../contract/model.js';
import type { JsonValue } from '../../runtimes/seam/types.js';
import { REDACTED, scrubSecrets, secretForms } from '../guarded/secret.js';

export interface EndpointOptions {
  /** e.g. `https://api.example.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** Sent as a bearer token; never written anywhere and removed from every message concord prints. */
  apiKey?: string;
  model: string;
  /** One request, from sending to the last byte of the answer. */
  timeoutMs: number;
  /** Further attempts after a 429 or 5xx answer, with doubling backoff. */
  retries: number;
  maxRequestBytes: number;
  maxResponseBytes: number;
}

export const ENDPOINT_DEFAULTS = {
  timeoutMs: 120_000,
  retries: 3,
  maxRequestBytes: 4_000_000,
  maxResponseBytes: 4_000_000,
} as const;

/** First wait before a retry; it doubles on each further attempt unless the endpoint asks for longer. */
const BACKOFF_MS = 500;
/** The most a `Retry-After` header may make concord wait. */
const MAX_RETRY_AFTER_MS = 30_000;

/** Any failure to get a usable answer from the endpoint: one line, with the key and any URL credentials removed. */
export class EndpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EndpointError';
  }
}

/** The endpoint as it may be printed: no credentials, no query string. */
export function describeEndpoint(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(an unparsable URL)';
  }
}

/**
 * `text` with the key (in its common forms: case, URL-encoding, base64), the bearer header, URL credentials
 * and every secret this process holds blanked, folded onto one line.
 */
export function redact(text: string, endpoint: Pick<EndpointOptions, 'apiKey' | 'baseUrl'>): string {
  let out = scrubSecrets(text);
  const secrets = [
    ...(endpoint.apiKey ? secretForms(endpoint.apiKey) : []),
    endpoint.apiKey,
    ...urlSecrets(endpoint.baseUrl),
  ].filter((s): s is string => typeof s === 'string' && s.length > 0);
  // Longest first, so a key that contains another secret is blanked whole.
  for (const secret of secrets.sort((a, b) => b.length - a.length)) out = out.split(secret).join(REDACTED);
  out = out.replace(/(bearer\s+)\S+/gi, `$1${REDACTED}`);
  return out.replace(/\s*\n\s*/g, ' ').trim();
}

/** Parameters of a query that carry credentials by name, or whose value is long enough to be a token. */
const SECRET_PARAM = /key|token|secret|sig|auth|pass|code|cred/i;
const TOKEN_LENGTH = 16;

/** The credentials in an endpoint URL: user, password, and query values that look like keys or tokens. */
export function urlSecrets(baseUrl: string): string[] {
  try {
    const url = new URL(baseUrl);
    const query = [...url.searchParams]
      .filter(([name, value]) => SECRET_PARAM.test(name) || value.length >= TOKEN_LENGTH)
      .map(([, value]) => value);
    return [url.username, url.password, decodeURIComponent(url.password), url.search.slice(1), ...query].filter(
      Boolean,
    );
  } catch {
    return [];
  }
}

/** `<baseUrl>/chat/completions`, built with URL: the base's path gains one segment and its query is kept. */
export function completionsUrl(baseUrl: string): URL {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  return url;
}

/** Asks an OpenAI-compatible chat-completions endpoint for one answer; every failure is an EndpointError. */
export async function completeOverHttp(endpoint: EndpointOptions, request: ModelRequest): Promise<ModelResponse> {
  const where = describeEndpoint(endpoint.baseUrl);
  try {
    return await attempt(endpoint, request, where);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new EndpointError(redact(message, endpoint));
  }
}

async function attempt(endpoint: EndpointOptions, request: ModelRequest, where: string): Promise<ModelResponse> {
  const url = completionsUrl(endpoint.baseUrl);
  const body = JSON.stringify(toChatCompletion(endpoint.model, request));
  const size = Buffer.byteLength(body);
  if (size > endpoint.maxRequestBytes) {
    throw new Error(
      `the request to ${where} would be ${size} bytes, over the limit of ${endpoint.maxRequestBytes} (the conversation grew too large)`,
    );
  }
  for (let tried = 0; ; tried++) {
    const answer = await post(endpoint, url, body, where);
    if (answer.status >= 200 && answer.status < 300) return fromChatCompletion(where, answer.text);
    const retryable = answer.status === 429 || answer.status >= 500;
    if (!retryable || tried >= endpoint.retries) {
      const gaveUp = retryable ? ` (after ${tried + 1} attempts)` : '';
      throw new Error(
        `${where} answered HTTP ${answer.status}${gaveUp}: ${answer.text.slice(0, 300) || '(empty body)'}`,
      );
    }
    await sleep(Math.min(MAX_RETRY_AFTER_MS, Math.max(BACKOFF_MS * 2 ** tried, answer.retryAfterMs ?? 0)));
  }
}

interface RawAnswer {
  status: number;
  text: string;
  retryAfterMs?: number;
}

/** One POST, bounded in time and in the size of what is read back. */
async function post(endpoint: EndpointOptions, url: URL, body: string, where: string): Promise<RawAnswer> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, endpoint.timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body,
      signal: controller.signal,
    });
    const text = await readLimited(response, endpoint.maxResponseBytes, where, controller);
    const retryAfter = Number(response.headers.get('retry-after'));
    return {
      status: response.status,
      text,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
    };
  } catch (error) {
    if (timedOut) throw new Error(`${where} did not answer within ${endpoint.timeoutMs} ms`);
    if (error instanceof Error && error.message.startsWith(where)) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`${where} could not be reached: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

async function readLimited(
  response: Response,
  limit: number,
  where: string,
  controller: AbortController,
): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) {
      controller.abort();
      throw new Error(`${where} answered with more than ${limit} bytes; concord stopped reading`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function toChatCompletion(model: string, request: ModelRequest): unknown {
  const system = request.system.map((s) => s.text).join('\n\n');
  const messages = request.messages.map((m) => {
    if (m.role === 'user') return { role: 'user', content: m.content };
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    return {
      role: 'assistant',
      content: m.content,
      ...(m.toolCalls.length > 0
        ? {
            tool_calls: m.toolCalls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: JSON.stringify(c.arguments) },
            })),
          }
        : {}),
    };
  });
  return {
    model,
    messages: [{ role: 'system', content: system }, ...messages],
    tools: request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    })),
  };
}

function fromChatCompletion(where: string, text: string): ModelResponse {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${where} answered with something that is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
  }
  const message = body?.choices?.[0]?.message;
  if (typeof message !== 'object' || message === null)
    throw new Error(`${where}: the answer has no choices[0].message`);
  const calls: unknown = message.tool_calls ?? [];
  if (!Array.isArray(calls)) throw new Error(`${where}: choices[0].message.tool_calls is not a list`);
  const toolCalls: ToolCall[] = calls.map((call, i) => {
    const name = call?.function?.name;
    if (typeof name !== 'string' || name === '')
      throw new Error(`${where}: choices[0].message.tool_calls[${i}].function.name is missing`);
    const raw = call?.function?.arguments;
    let args: JsonValue;
    try {
      args = typeof raw === 'string' ? (JSON.parse(raw) as JsonValue) : (raw as JsonValue);
    } catch {
      throw new Error(
        `${where}: choices[0].message.tool_calls[${i}].function.arguments is not JSON: ${JSON.stringify(String(raw).slice(0, 120))}`,
      );
    }
    return { id: typeof call?.id === 'string' && call.id ? call.id : `call-${i + 1}`, name, arguments: args ?? {} };
  });
  return { content: typeof message.content === 'string' ? message.content : '', toolCalls };
}
