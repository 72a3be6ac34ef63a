import { fencedBlock, readSdkSection, sectionFences } from '../../contract/sdk-section.js';
import { withoutByteOrderMark } from '../../contract/text-lines.js';
import type { Language } from '../../runtimes/seam/types.js';
import { parseJsonText } from '../guarded/json-input.js';
import { LANGUAGE_PACKS, LANGUAGES } from '../languages/index.js';
import { declaresSome, holdsOnlyDeclarations } from './declaration-fences.js';
import { CheckInputError } from './input-error.js';
import { fileView, type ModelView } from './model-view.js';
import { REQUEST_HINT, type RequestDocument, wireTool } from './request-body.js';
import { codeToolEntries, type RequestReadOptions, type RequestViews, unfencedSection } from './request-views.js';
import { codeBlocksWithoutSdk, systemTextSdk } from './system-text.js';
import { toolsDocument } from './tools-document.js';

/** How an SDK file is read: the language it is run in, the functions offered beside it, how it was given. */
export interface SdkFileOptions extends RequestReadOptions {
  /**
   * The text is given as the SDK (the API's `section`): one in which no reading finds an SDK is the bare code of
   * `language`, as code a compiler judges. A file is read as what it holds, and a prompt never made code.
   */
  isSdk?: boolean | undefined;
  /** The language programs are written in (`--language`): the runtime's. It never makes prose into code. */
  language?: Language | undefined;
  /** The functions offered beside the SDK (`--run-code`, or a tools file in the same folder). */
  wire?: RequestDocument['wire'] | undefined;
}

/** The language a file's name says its code is in (`sdk.py`, `tools.d.ts`). */
export function codeFileLanguage(file: string): Language | undefined {
  return LANGUAGES.find((language) => LANGUAGE_PACKS[language].codeFile.test(file));
}

/** The languages a text's fences name (none for a text without an SDK fence). */
export function fencedLanguages(given: string): Set<Language> {
  return new Set(sectionFences(withoutByteOrderMark(given)).flatMap((fence) => fence.language ?? []));
}

/**
 * An SDK file as `concord check --sdk` reads it, or why it holds none. A file named as code of a language (`sdk.py`,
 * `sdk.d.ts`) is the bare code of the SDK; so is a text that reads as a whole as declarations of one language, a
 * function, a class or a type among them (its fences are then in its doc comments: a description's example, none of
 * them the SDK's; a settings file of `name: value` lines is none). Any other text is a prompt:
 * its SDK is the block that names a language and declares (a fence, or code between tags), or TypeScript declarations
 * written between prose; a text with none of these shows no SDK, whatever `--language` says.
 */
export function sdkFileView(given: string, file: string, options: SdkFileOptions = {}): RequestViews {
  const text = withoutByteOrderMark(given);
  const view = (section: string, language: Language, source = file): RequestViews => ({
    views: [viewOf(section, options.language ?? language, source, file, options)],
  });
  const named = codeFileLanguage(file);
  if (named !== undefined) {
    if (options.found && !holdsOnlyDeclarations(named, text))
      return { none: `${LANGUAGE_PACKS[named].name} code that runs, not declarations` };
    return view(bare(text, named), named);
  }
  const candidates = options.language === undefined ? LANGUAGES : [options.language];
  const whole = candidates.filter((language) => holdsOnlyDeclarations(language, text) && declaresSome(language, text));
  if (whole.length === 1) return view(bare(text, whole[0]!), whole[0]!);
  const sdk = systemTextSdk(text);
  if (sdk !== undefined) {
    if (sdk.read.block === undefined)
      throw new CheckInputError(
        file,
        `the SDK section ${sdk.read.problem}`,
        'keep the SDK in one fenced block whose info string names its language (```python or ```ts); examples take a fence without one',
      );
    return view(sdk.section, sdk.read.block.language, `${file}${sdk.place}`);
  }
  const unfenced = unfencedSection(text);
  const section = unfenced === undefined || 'problem' in unfenced ? undefined : readSdkSection(unfenced.section);
  if (unfenced !== undefined && 'section' in unfenced && section?.block !== undefined)
    return view(unfenced.section, section.block.language);
  if (options.isSdk && options.language !== undefined) return view(bare(text, options.language), options.language);
  if (unfenced !== undefined && 'problem' in unfenced)
    throw new CheckInputError(file, `the text holds ${unfenced.problem}`, 'fix the declarations');
  return { none: codeBlocksWithoutSdk([text]) ?? 'no code block' };
}

/** The bare code of an SDK as a `tools:sdk` section: one fenced block of the language. */
const bare = (code: string, language: Language): string =>
  `${fencedBlock(code, LANGUAGE_PACKS[language].fenceWords[0]!)}\n`;

function viewOf(section: string, language: Language, source: string, file: string, options: SdkFileOptions): ModelView {
  const wire = options.wire ?? [];
  const code = codeToolEntries(wire, file, options);
  return fileView({
    source,
    language,
    section,
    tools: wire.map(({ tool }) => tool),
    codeTools: code.map(({ tool }) => tool.name),
    toolSources: new Map(code.map(({ place, tool }) => [tool.name, place])),
  });
}

/**
 * The functions `concord check --run-code FILE` offers beside an SDK: one function (a wire tool, or OpenAI's
 * `{ type: "function", … }`), or a tools document (a list, `{ tools }`, `{ initial, changes }`). At least one of them
 * must run programs: run_code, one named by `codeTools`, or one that takes a `code` string.
 */
export function codeToolFile(text: string, file: string, codeTools?: readonly string[]): RequestDocument['wire'] {
  const parsed = parseJsonText(withoutByteOrderMark(text));
  if ('problem' in parsed) throw new CheckInputError(file, `the code tool ${parsed.problem}`, REQUEST_HINT);
  const listed = toolsDocument(parsed.value, file);
  const one = listed === undefined ? wireTool(parsed.value) : undefined;
  if (listed === undefined && one === undefined)
    throw new CheckInputError(
      file,
      '$ names no function, and is no list of tools',
      'give the function that runs programs ({ "name": "run_code", "description": …, "parameters": … }), or the tools file it is listed in',
    );
  const wire = listed?.map(({ path, tool }) => ({ place: `${file} ${path}`, tool })) ?? [
    { place: `${file} $`, tool: one! },
  ];
  if (codeToolEntries(wire, file, { codeTools }).length === 0)
    throw new CheckInputError(
      file,
      `no function here runs programs: ${wire.map(({ tool }) => JSON.stringify(tool.name)).join(', ')} take${wire.length === 1 ? 's' : ''} no \`code\` string`,
      "give the function that runs the backend's programs; when it takes its program under another name, name the function: --code-tool NAME (codeTool in the API)",
    );
  return wire;
}
