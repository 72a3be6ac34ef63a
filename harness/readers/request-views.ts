import { RUN_CODE_TOOL } from '../../contract/backend.js';
import { describeFence, readSdkSection } from '../../contract/sdk-section.js';
import { withoutByteOrderMark } from '../../contract/text-lines.js';
import type { Language } from '../../runtimes/seam/types.js';
import { parseJsonText, printable } from '../guarded/json-input.js';
import { LANGUAGE_PACKS, LANGUAGES } from '../languages/index.js';
import { CheckInputError } from './input-error.js';
import { fileView, type ModelView, type ShownFunction, takesCode } from './model-view.js';
import { isObject, REQUEST_HINT, type RequestDocument, readRequestBody } from './request-body.js';
import { codeBlocksWithoutSdk, systemTextSdk } from './system-text.js';

/** The views a request holds (one per SDK it shows), or why it holds none: it is not a Code Mode request. */
export type RequestViews = { views: ModelView[] } | { none: string };

/** The SDK a text holds without a fence naming its language, in the first language whose pack reads one there. */
export function unfencedSection(text: string): { section: string } | { problem: string } | undefined {
  for (const language of LANGUAGES) {
    const found = LANGUAGE_PACKS[language].unfencedSection?.(text);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** How a request is read: which functions run programs, and whether it was named or found in a folder. */
export interface RequestReadOptions {
  /** The functions that run programs (`--code-tool a,b`): default run_code and those that take code. */
  codeTools?: readonly string[] | undefined;
  /** Found in a folder, where a request may lack the functions named: they are then looked for and not required. */
  found?: boolean | undefined;
}

/**
 * The functions of a request that run programs: the ones `codeTools` names, each of which must be there unless the
 * request was `found` in a folder; else `run_code` and every function that takes a `code` string or whose whole input
 * is free-form text.
 */
export function codeToolEntries(
  wire: RequestDocument['wire'],
  file: string,
  { codeTools: named, found }: RequestReadOptions = {},
): RequestDocument['wire'] {
  if (named === undefined) return wire.filter(({ tool }) => tool.name === RUN_CODE_TOOL || takesCode(tool));
  const missing = named.filter((name) => !wire.some(({ tool }) => tool.name === name));
  if (missing.length > 0 && !found)
    throw new CheckInputError(
      file,
      `the request has no function named ${missing.map((name) => JSON.stringify(name)).join(' or ')}; its functions are ${wire.map(({ tool }) => JSON.stringify(tool.name)).join(', ') || 'none'}`,
      'name the functions that run programs as the request names them: --code-tool NAME[,NAME] (codeTool in the API and the matcher), or leave the option out to take every function that takes a `code` string',
    );
  return wire.filter(({ tool }) => named.includes(tool.name));
}

/**
 * The SDK a backend writes into a code tool's description rather than the system prompt, as a `tools:sdk` section: the
 * description itself when it holds a block naming a language (a fence, or code between tags), or with its TypeScript
 * declarations written between prose fenced as TypeScript. When the description holds code but not one SDK (a block
 * of stubs beside example programs, declarations that do not parse), what to say instead. Undefined when it holds no
 * SDK.
 */
export function descriptionSdk(
  tool: ShownFunction,
): { section: string; place: string } | { problem: string; hint: string } | undefined {
  const { description } = tool;
  if (description === undefined) return undefined;
  const sdk = systemTextSdk(description);
  if (sdk?.read.block !== undefined) return { section: sdk.section, place: `.description${sdk.place}` };
  if (sdk !== undefined)
    return {
      problem: `the ${tool.name} description holds ${sdk.named.length} fenced block(s) but not one SDK block (one fence naming python or ts): ${printable(sdk.named.map(describeFence).join('; '))}`,
      hint: `concord reads the SDK from the system prompt, or from ${tool.name}'s description when that holds one SDK block; save the SDK as a file and give it: concord check --sdk FILE --language python|typescript --run-code FILE`,
    };
  const found = unfencedSection(description);
  if (found === undefined) return undefined;
  if ('section' in found) return { section: found.section, place: '.description' };
  return {
    problem: `the ${tool.name} description holds ${found.problem}`,
    hint: `fix the declarations, or save the SDK as a file and give it: concord check --sdk FILE --language typescript --run-code FILE`,
  };
}

/**
 * The SDK the system prompt shows, read as the gate's model seam reads one: its one text part holding a block that
 * names a language and declares; several such blocks are bad input naming each. Undefined when no part holds one.
 */
function systemSdk(
  parts: RequestDocument['parts'],
  file: string,
): { place: string; section: string; language: Language } | undefined {
  const found = parts.flatMap((part) => {
    const sdk = systemTextSdk(part.text);
    return sdk === undefined ? [] : [{ place: `${part.place}${sdk.place}`, sdk }];
  });
  const blocks = found.flatMap(({ place, sdk }) => sdk.named.map((fence) => ({ place, fence })));
  if (blocks.length > 1) {
    const where = blocks.map(({ place, fence }) => `${place} ${describeFence(fence)}`).join('; ');
    throw new CheckInputError(
      file,
      `the system prompt holds ${blocks.length} fenced SDK blocks, where the tools:sdk section holds one: ${where}`,
      'keep the SDK in one fenced block; examples in the prose take a fence without a language (```)',
    );
  }
  const [only] = found;
  if (only === undefined) return undefined;
  if (only.sdk.read.block === undefined)
    throw new CheckInputError(
      file,
      `${only.place}: ${only.sdk.read.problem}`,
      'put the SDK in one fenced block whose info string names its language: ```python or ```ts',
    );
  return { place: only.place, section: only.sdk.section, language: only.sdk.read.block.language };
}

/**
 * What a request shows a model of a Code Mode backend: the SDK of its system prompt, judged with every function that
 * runs programs; else each SDK a code tool's description holds, judged with that tool alone, so no code tool is blamed
 * for another's SDK. Tools offered natively beside the code tools are no part of any SDK. A request that shows no SDK
 * is no Code Mode request: it holds no view, and says why.
 */
export function requestViews(document: RequestDocument, file: string, options: RequestReadOptions = {}): RequestViews {
  const codeTools = codeToolEntries(document.wire, file, options);
  const tools = document.wire.map(({ tool }) => tool);
  const placesOf = (listed: RequestDocument['wire']) => new Map(listed.map(({ place, tool }) => [tool.name, place]));
  const inSystem = systemSdk(document.parts, file);
  if (inSystem !== undefined)
    return {
      views: [
        fileView({
          source: inSystem.place,
          language: inSystem.language,
          section: inSystem.section,
          tools,
          codeTools: codeTools.map(({ tool }) => tool.name),
          toolSources: placesOf(codeTools),
          ...(codeTools.length === 0 ? { notes: [noCodeTool(file)] } : {}),
        }),
      ],
    };
  const views = codeTools.flatMap((entry) => {
    const sdk = descriptionSdk(entry.tool);
    if (sdk === undefined) return [];
    if ('problem' in sdk) throw new CheckInputError(file, `${entry.place}: ${sdk.problem}`, sdk.hint);
    const read = readSdkSection(sdk.section);
    if (read.block === undefined) return [];
    return [
      fileView({
        source: `${entry.place}${sdk.place}`,
        language: read.block.language,
        section: sdk.section,
        tools,
        codeTools: [entry.tool.name],
        toolSources: placesOf([entry]),
      }),
    ];
  });
  return views.length > 0 ? { views } : { none: noSdkReason(document, codeTools) };
}

/**
 * A chat request body's JSON text read for its SDKs (see `requestViews`); text that is no JSON object shaped as a
 * request is bad input naming what is wrong.
 */
export function readRequest(text: string, file: string, options: RequestReadOptions = {}): RequestViews {
  const parsed = parseJsonText(withoutByteOrderMark(text));
  if ('problem' in parsed) throw new CheckInputError(file, `the request ${parsed.problem}`, REQUEST_HINT);
  if (!isObject(parsed.value)) throw new CheckInputError(file, '$ is not a JSON object', REQUEST_HINT);
  return requestViews(readRequestBody(parsed.value, file), file, options);
}

/** Why a request holds no SDK, in a few words a reader of the summary can act on. */
function noSdkReason(document: RequestDocument, codeTools: RequestDocument['wire']): string {
  const texts = [
    ...document.parts.map((part) => part.text),
    ...codeTools.flatMap(({ tool }) => tool.description ?? []),
  ];
  const said = codeBlocksWithoutSdk(texts);
  if (said !== undefined) return said;
  return document.parts.length === 0
    ? 'no system prompt, and no code tool whose description holds an SDK'
    : 'no SDK block';
}

/** The note of a request that shows an SDK but no function that runs programs. */
function noCodeTool(file: string): string {
  return `${file} has no function that runs programs (run_code, or one that takes a \`code\` string), so no code tool's description or \`code\` parameter was checked; if it has one under another name, give it: --code-tool NAME (codeTool in the API and the matcher)`;
}
