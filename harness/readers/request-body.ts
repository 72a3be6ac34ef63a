import { CheckInputError } from './input-error.js';
import type { ShownFunction } from './model-view.js';

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const REQUEST_HINT =
  'give the body of a chat request: { "messages": [{ "role": "system", "content": "…```python\\n…```" }, …], "tools": [{ "type": "function", "function": { "name": "run_code", … } }] } (or Anthropic\'s top-level "system", the Responses API\'s "instructions" and "input", Gemini\'s "systemInstruction" and "contents", the AI SDK\'s "prompt", Bedrock Converse\'s "system" and "toolConfig")';

/** The text parts of a message's content: a string, or the `text` of each `{ type: "text" }` part. */
function textParts(content: unknown, path: string): Array<{ path: string; text: string }> {
  if (typeof content === 'string') return [{ path, text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part, i) =>
    isObject(part) && typeof part.text === 'string' ? [{ path: `${path}[${i}].text`, text: part.text }] : [],
  );
}

/** Where Gemini's `generateContent` keeps the system prompt (REST takes both spellings). */
const GEMINI_SYSTEM = ['systemInstruction', 'system_instruction'] as const;
/** Where a Gemini tool entry lists the backend's functions. */
const GEMINI_DECLARATIONS = ['functionDeclarations', 'function_declarations'] as const;

/** What only a function of the backend's has (a provider's tool is `{ "googleSearch": {} }`). */
const FUNCTION_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'function',
  'toolSpec',
  'description',
  'parameters',
  'input_schema',
  'inputSchema',
  'parametersJsonSchema',
]);

/** Where a request keeps its turns: Chat Completions' `messages`, the Responses API's `input`, the AI SDK's `prompt`. */
const TURNS = ['messages', 'input', 'prompt'] as const;

/** Whether a value is shaped as a chat request body: it holds the conversation in one of the places the APIs keep it. */
export function isRequestBody(value: unknown): value is Record<string, unknown> {
  return (
    isObject(value) &&
    (TURNS.some((key) => Array.isArray(value[key])) || typeof value.input === 'string' || Array.isArray(value.contents))
  );
}

/**
 * Where a request body keeps its system prompt, in each shape the chat APIs write it: Chat Completions' system and
 * developer `messages`, the top-level `system` of Anthropic Messages and of Bedrock's Converse API, the Responses
 * API's `instructions` and its system and developer `input` items, Gemini's `systemInstruction`, the system messages
 * of the `prompt` a model of the AI SDK is called with. Each text part with the JSON path it stands at.
 */
export function systemParts(body: Record<string, unknown>, file: string): Array<{ path: string; text: string }> {
  const turns = TURNS.find((key) => Array.isArray(body[key]));
  if (!isRequestBody(body))
    throw new CheckInputError(
      file,
      '$.messages is missing or not a list (and so are $.input, $.prompt and $.contents)',
      REQUEST_HINT,
    );
  const fromTurns = (turns === undefined ? [] : (body[turns] as unknown[])).flatMap((message, i) =>
    isObject(message) && (message.role === 'system' || message.role === 'developer')
      ? textParts(message.content, `$.${turns}[${i}].content`)
      : [],
  );
  const gemini = GEMINI_SYSTEM.find((key) => isObject(body[key]));
  return [
    ...textParts(body.system, '$.system'),
    ...textParts(body.instructions, '$.instructions'),
    ...(gemini === undefined ? [] : textParts((body[gemini] as Record<string, unknown>).parts, `$.${gemini}.parts`)),
    ...fromTurns,
  ];
}

/**
 * The functions of a request's `tools` (`toolConfig.tools` in Bedrock's Converse API), each with its JSON path: one
 * per entry, or each of a Gemini entry's declarations. A tool the model's provider runs itself (or Bedrock's
 * `cachePoint`) is none of the backend's and is left out.
 */
function requestTools(body: Record<string, unknown>): Array<{ path: string; tool: unknown }> {
  // Bedrock's Converse API keeps them in `toolConfig`.
  const converse = isObject(body.toolConfig) && Array.isArray(body.toolConfig.tools);
  const [list, at] = converse
    ? [(body.toolConfig as Record<string, unknown>).tools, '$.toolConfig.tools']
    : [body.tools, '$.tools'];
  return Array.isArray(list) ? functionEntries(list, at) : [];
}

/** The entries of a list of tools at `at` that are the backend's functions: a Gemini entry's declarations each. */
export function functionEntries(list: readonly unknown[], at: string): Array<{ path: string; tool: unknown }> {
  return list.flatMap((tool, i) => {
    const key = isObject(tool) ? GEMINI_DECLARATIONS.find((name) => Array.isArray(tool[name])) : undefined;
    if (key !== undefined)
      return ((tool as Record<string, unknown>)[key] as unknown[]).map((declaration, j) => ({
        path: `${at}[${i}].${key}[${j}]`,
        tool: declaration,
      }));
    return providerTool(tool) ? [] : [{ path: `${at}[${i}]`, tool }];
  });
}

/**
 * A tool the model's provider runs itself (`{ "type": "web_search" }`, Anthropic's `web_search_20250305`, Gemini's
 * `{ "googleSearch": {} }`): no function of the backend's. A backend's own tool is `type: "function"`, Anthropic's
 * `custom`, or has no type and a function's fields.
 */
function providerTool(tool: unknown): boolean {
  if (!isObject(tool)) return false;
  if (typeof tool.type === 'string') return tool.type !== 'function' && tool.type !== 'custom';
  const keys = Object.keys(tool);
  return keys.length > 0 && !keys.some((key) => FUNCTION_FIELDS.has(key));
}

/**
 * A tool of the request as a wire tool: Chat Completions' `{ type: "function", function: {…} }`, Bedrock Converse's
 * `{ toolSpec: { name, description, inputSchema: { json } } }`, or `{ name, … }` itself (the Responses API's, and its
 * custom tools of free-form text, Anthropic's with its `input_schema`, a Gemini declaration, the AI SDK's with its
 * `inputSchema`).
 */
export function wireTool(value: unknown): ShownFunction | undefined {
  const wrapped = isObject(value) ? (value.function ?? value.toolSpec) : undefined;
  const fn = isObject(wrapped) ? wrapped : value;
  if (!isObject(fn) || typeof fn.name !== 'string') return undefined;
  const inputSchema = fn.inputSchema;
  // Bedrock wraps the schema: `{ "json": {…} }`.
  const bedrock = isObject(inputSchema) && Object.keys(inputSchema).length === 1 && isObject(inputSchema.json);
  const parameters =
    fn.parameters ?? fn.input_schema ?? (bedrock ? inputSchema.json : inputSchema) ?? fn.parametersJsonSchema;
  // An OpenAI custom tool takes free-form text (its `format`), no arguments: a program is its whole input.
  const freeform = fn.type === 'custom' && parameters === undefined;
  // A missing description is kept missing: the language check says so of run_code.
  return {
    name: fn.name,
    ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
    parameters,
    ...(freeform ? { freeform } : {}),
  };
}

/**
 * A request as the readers take it: the text parts of its system prompt and its functions, each at its place (the
 * file and the JSON path: `body.json $.messages[0].content`). A request body is one file; a suite's snapshot folder
 * may keep the prompt in one file and the tools in another.
 */
export interface RequestDocument {
  parts: Array<{ place: string; text: string }>;
  wire: Array<{ place: string; tool: ShownFunction }>;
}

/** The system prompt's text parts and the functions of a request body; a function with no name is bad input. */
export function readRequestBody(body: Record<string, unknown>, file: string): RequestDocument {
  const parts = systemParts(body, file).map(({ path, text }) => ({ place: `${file} ${path}`, text }));
  const wire = requestTools(body).map(({ path, tool }) => {
    const named = wireTool(tool);
    if (named === undefined) throw new CheckInputError(file, `${path} names no function`, REQUEST_HINT);
    return { place: `${file} ${path}`, tool: named };
  });
  return { parts, wire };
}
