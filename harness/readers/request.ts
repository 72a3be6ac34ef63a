import { RUN_CODE_TOOL } from '../../contract/backend.js';
import {
  describeFence,
  fencedBlock,
  readSdkSection,
  SDK_FENCE_WORDS,
  sectionFences,
} from '../../contract/sdk-section.js';
import { withoutByteOrderMark } from '../../contract/text-lines.js';
import type { Language } from '../../runtimes/seam/types.js';
import { parseJsonText, printable } from '../guarded/json-input.js';
import { LANGUAGE_PACKS, LANGUAGES } from '../languages/index.js';
import { UserError } from '../user-error.js';
import { holdsOnlyDeclarations, joinedDeclarationFences, joinedPlace } from './declaration-fences.js';
import { codeParameter, fileView, type ModelView, type ShownFunction } from './model-view.js';
import { systemTextSdk } from './system-text.js';

/** Input `concord check` cannot read as a model-visible request or SDK: exit 2, naming the file and the place. */
export class CheckInputError extends UserError {
  constructor(file: string, problem: string, hint: string, line?: number, column?: number) {
    super(problem, {
      place: { file, ...(line === undefined ? {} : { line, ...(column === undefined ? {} : { column }) }) },
      hint,
    });
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const REQUEST_HINT =
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
function systemParts(body: Record<string, unknown>, file: string): Array<{ path: string; text: string }> {
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
  if (!Array.isArray(list)) return [];
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
function wireTool(value: unknown): ShownFunction | undefined {
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

/** The SDK a text holds without a fence naming its language, in the first language whose pack reads one there. */
function unfencedSection(text: string): { section: string } | { problem: string } | undefined {
  for (const language of LANGUAGES) {
    const found = LANGUAGE_PACKS[language].unfencedSection?.(text);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The SDK a backend writes into its code tool's description rather than the system prompt, as a `tools:sdk` section:
 * the description itself when it holds one fenced block naming a language, or with its TypeScript declarations
 * (prose, the types and `declare const codemode: {…}`, prose) fenced as TypeScript (see `declarationsSection`). When
 * the description holds code but not one SDK (a block of stubs beside example programs, declarations that do not
 * parse), what to say instead: where that code is, and that the SDK can be given as a file. Undefined when the
 * description holds no code.
 */
function codeToolSdk(
  runCode: ShownFunction | undefined,
  path: string,
): { section: string; path: string } | { problem: string; hint: string } | undefined {
  const description = runCode?.description;
  if (runCode === undefined || description === undefined) return undefined;
  const fences = sectionFences(description).filter((fence) => fence.info !== '');
  if (fences.length === 0) {
    const found = unfencedSection(description);
    if (found === undefined) return undefined;
    if ('section' in found) return { section: found.section, path: `${path}.description` };
    return {
      problem: `; the ${runCode.name} description holds ${found.problem}`,
      hint: `fix the declarations, or save the SDK as a file and give it: concord check --sdk FILE --language typescript --run-code FILE`,
    };
  }
  if (readSdkSection(description).block !== undefined) return { section: description, path: `${path}.description` };
  const joined = joinedDeclarationFences(description);
  if (joined !== undefined) return { section: joined.section, path: `${path}.description${joinedPlace(joined.lines)}` };
  return {
    problem: `; the ${runCode.name} description holds ${fences.length} fenced block(s) but not one SDK block (one fence naming python or ts): ${printable(fences.map(describeFence).join('; '))}`,
    hint: `concord reads the SDK from the system prompt, or from ${runCode.name}'s description when that holds one SDK block; save the SDK as a file and give it: concord check --sdk FILE --language python|typescript --run-code FILE`,
  };
}

/**
 * The SDK a chat request body shows a model, read as `concord check` reads it: the part of the system prompt (see
 * `systemParts`) that holds the `tools:sdk` section (optional prose and one fenced block naming Python or TypeScript),
 * else the description of the function that runs programs when that holds the SDK (see `codeToolSdk`), and that
 * function among `tools` (`run_code`, or the `codeTool` the backend names it; see `refuseUnnamedCodeTool`, and a
 * request with no such function says in a note that it went unchecked). The other functions are the backend's native
 * tools: registered, but not every one (a code-only tool is offered through the SDK alone); the provider's own tools
 * are left out. Anything else is bad input naming the JSON path.
 */
export function requestView(text: string, file: string, codeTool: string = RUN_CODE_TOOL): ModelView {
  const { parts, wire } = parseRequest(text, file);
  const code = wire.find(({ tool }) => tool.name === codeTool);
  if (code === undefined) refuseUnnamedCodeTool(wire, file, codeTool);
  const runCode = code?.tool;
  const native = wire.filter(({ tool }) => tool.name !== codeTool).map(({ tool }) => tool.name);
  const subject = (path: string, section: string, language: Language): ModelView =>
    fileView({
      source: `${file} ${path}`,
      language,
      section,
      tools: wire.map(({ tool }) => tool),
      codeTool,
      ...(code === undefined ? {} : { codeToolSource: `${file} ${code.path}` }),
      ...(native.length > 0 ? { registered: { names: native, complete: false } } : {}),
      ...(code === undefined
        ? {
            notes: [
              `${file} has no function named ${JSON.stringify(codeTool)}, so the code tool's description and \`code\` parameter were not checked; if the function that runs programs has another name, give it: --code-tool NAME (codeTool in the API and the matcher)`,
            ],
          }
        : {}),
    });
  const found = sdkParts(parts);
  // A system prompt with an SDK block is read first; without one, the code tool's description may hold the SDK.
  const inCodeTool = found.length === 0 ? codeToolSdk(runCode, code?.path ?? '') : undefined;
  if (inCodeTool !== undefined && 'section' in inCodeTool) {
    const read = readSdkSection(inCodeTool.section);
    if (read.block !== undefined) return subject(inCodeTool.path, inCodeTool.section, read.block.language);
  }
  const told = inCodeTool !== undefined && 'problem' in inCodeTool ? inCodeTool : undefined;
  if (parts.length === 0)
    throw new CheckInputError(
      file,
      `the request holds no system prompt with text (a system or developer message, $.system, $.instructions or $.systemInstruction)${told?.problem ?? ''}`,
      told?.hint ?? REQUEST_HINT,
    );
  const blocks = found.flatMap((part) => part.named.map((fence) => ({ part, fence })));
  if (blocks.length > 1) {
    const where = blocks.map(({ part, fence }) => `${part.path} ${describeFence(fence)}`).join('; ');
    throw new CheckInputError(
      file,
      `the system prompt holds ${blocks.length} fenced SDK blocks, where the tools:sdk section holds one: ${where}`,
      'keep the SDK in one fenced block; examples in the prose take a fence without a language (```)',
    );
  }
  const only = found[0];
  if (only === undefined || only.read.block === undefined) {
    const other = parts.flatMap((part) =>
      sectionFences(part.text)
        .filter((fence) => fence.info !== '')
        .map((fence) => `${part.path} ${describeFence(fence)}`),
    );
    const languages = Object.values(SDK_FENCE_WORDS).flat().join(', ');
    throw new CheckInputError(
      file,
      other.length > 0
        ? `no system prompt holds a fenced SDK block in a language concord knows (${languages}): ${printable(other.join('; '))}`
        : only !== undefined
          ? `${only.path}: ${only.read.problem}`
          : `no system prompt holds a fenced SDK block (\`\`\`python or \`\`\`ts)${told?.problem ?? ''}`,
      (only === undefined ? told?.hint : undefined) ??
        'put the SDK in one fenced block whose info string names its language: ```python or ```ts',
    );
  }
  return subject(only.path, only.text, only.read.block.language);
}

/** A request body's text parts of the system prompt and its functions, each with its JSON path; bad input throws. */
function parseRequest(
  text: string,
  file: string,
): { parts: Array<{ path: string; text: string }>; wire: Array<{ path: string; tool: ShownFunction }> } {
  const parsed = parseJsonText(withoutByteOrderMark(text));
  if ('problem' in parsed) throw new CheckInputError(file, `the request ${parsed.problem}`, REQUEST_HINT);
  const body = parsed.value;
  if (!isObject(body)) throw new CheckInputError(file, '$ is not a JSON object', REQUEST_HINT);
  const parts = systemParts(body, file);
  const wire = requestTools(body).map(({ path, tool }) => {
    const named = wireTool(tool);
    if (named === undefined) throw new CheckInputError(file, `${path} names no function`, REQUEST_HINT);
    return { path, tool: named };
  });
  return { parts, wire };
}

/**
 * The text parts holding fences that name a language, each read as a `tools:sdk` section: declarations in several
 * fences beside example programs are one SDK, read as such.
 */
function sdkParts(parts: ReadonlyArray<{ path: string; text: string }>) {
  return parts.flatMap((part) => {
    const sdk = systemTextSdk(part.text);
    if (sdk === undefined) return [];
    return [{ path: `${part.path}${sdk.place}`, text: sdk.section, read: sdk.read, named: sdk.named }];
  });
}

/**
 * Without a function of the code tool's name, a function that takes a `code` string is the code tool under another
 * name: read as a native tool, it would be a tool the SDK must offer (a false "not reachable") and the checks of the
 * code tool would never run. Bad input naming it and the option, rather than findings about the wrong tool.
 */
function refuseUnnamedCodeTool(
  wire: ReadonlyArray<{ path: string; tool: ShownFunction }>,
  file: string,
  codeTool: string,
): void {
  const takesCode = wire.filter(({ tool }) => {
    const code = codeParameter(tool.parameters);
    return code !== undefined && (code.type === undefined || code.type === 'string');
  });
  const [first] = takesCode;
  if (first === undefined) return;
  const named = takesCode.map(({ path, tool }) => `${path} ${JSON.stringify(tool.name)}`).join(', ');
  throw new CheckInputError(
    file,
    `the request has no function named ${JSON.stringify(codeTool)}, the one that runs programs; ${named} take${takesCode.length === 1 ? 's' : ''} a \`code\` string`,
    `if ${JSON.stringify(first.tool.name)} runs the programs, name it: --code-tool ${JSON.stringify(first.tool.name)} (codeTool in the API and the matcher)`,
  );
}

/**
 * The language of an SDK file: by its name (`sdk.py`, `tools.d.ts`), else by its fences when the ones that name a
 * language all name the same one. Undefined when neither says.
 */
export function sdkFileLanguage(file: string, given: string): Language | undefined {
  const named = LANGUAGES.find((language) => LANGUAGE_PACKS[language].codeFile.test(file));
  if (named !== undefined) return named;
  const fenced = fencedLanguages(given);
  return fenced.size === 1 ? [...fenced][0] : undefined;
}

/** The languages a text's fences name (none for a text without an SDK fence). */
export function fencedLanguages(given: string): Set<Language> {
  return new Set(sectionFences(withoutByteOrderMark(given)).flatMap((fence) => fence.language ?? []));
}

/**
 * An SDK file as `concord check --sdk` reads it: a `tools:sdk` section (prose and one fenced block), or the bare code
 * of the block, in `language`; `runCode` the run_code function's JSON beside it, if given, read from `runCodeSource`.
 * A text is bare code when `file` is named as code of the language (`sdk.py`, `sdk.d.ts`), when it has no fence, or
 * when it reads as a whole as declarations of the language: then its fences are in its doc comments (a description's
 * example), and none of them is the SDK's.
 */
export function sdkFileView(
  given: string,
  file: string,
  language: Language,
  runCode?: ShownFunction,
  runCodeSource?: string,
  codeTool: string = RUN_CODE_TOOL,
): ModelView {
  const text = withoutByteOrderMark(given);
  const words = SDK_FENCE_WORDS[language];
  const asText = LANGUAGE_PACKS[language].codeFile.test(file) ? undefined : readSdkSection(text);
  const bare = asText === undefined || asText.fences.length === 0 || holdsOnlyDeclarations(language, text);
  const fenced = bare ? `${fencedBlock(text, words[0]!)}\n` : text;
  const asWritten = bare ? readSdkSection(fenced) : asText;
  const joined = asWritten.block === undefined ? joinedDeclarationFences(fenced) : undefined;
  const section = joined?.section ?? fenced;
  const read = joined === undefined ? asWritten : readSdkSection(section);
  if (read.block === undefined)
    throw new CheckInputError(
      file,
      `the SDK section ${read.problem}`,
      `write one fenced block: \`\`\`${words[0]} … \`\`\``,
    );
  const source = joined === undefined ? file : `${file}${joinedPlace(joined.lines)}`;
  return fileView({
    source,
    language,
    section,
    tools: runCode === undefined ? [] : [runCode],
    codeTool: runCode?.name ?? codeTool,
    codeToolSource: runCodeSource,
  });
}

/**
 * The function that runs programs, as `concord check --run-code FILE` reads it: a wire tool, or OpenAI's
 * `{ type: "function", … }`, named `run_code` or the `codeTool` the backend names it.
 */
export function runCodeFile(text: string, file: string, codeTool: string = RUN_CODE_TOOL): ShownFunction {
  const parsed = parseJsonText(withoutByteOrderMark(text));
  if ('problem' in parsed) throw new CheckInputError(file, `the run_code function ${parsed.problem}`, REQUEST_HINT);
  const tool = wireTool(parsed.value);
  if (tool === undefined)
    throw new CheckInputError(
      file,
      '$ names no function',
      'give the run_code function: { "name": "run_code", "description": …, "parameters": … }',
    );
  if (tool.name !== codeTool)
    throw new CheckInputError(
      file,
      `$.name is ${JSON.stringify(tool.name)}, not ${JSON.stringify(codeTool)}`,
      `give the function that runs the backend's programs; when it is this one, name it: --code-tool ${JSON.stringify(tool.name)} (codeTool in the API)`,
    );
  return tool;
}
