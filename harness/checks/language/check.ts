import { RUN_CODE_TOOL, TOOLS_SDK_SECTION as SDK_SECTION } from '../../../contract/backend.js';
import { readSdkSection, SDK_FENCE_WORDS } from '../../../contract/sdk-section.js';
import type { Language } from '../../../runtimes/seam/types.js';
import type { Check, CheckInput, Finding } from '../types.js';
import { codeMarkersOf, LANGUAGE_NAME, otherLanguage, proseMarkersOf, withoutRuledOut } from './markers.js';
import { sdkParts } from './sdk-parts.js';

const ID = 'language-agreement';

/**
 * The `tools:sdk` fence, the `run_code` description, its `code` parameter description and the runtime
 * all name one language, and none of these surfaces (nor the prose around the SDK block) speaks the other one. Requests
 * that repeat the same
 * surfaces are judged once.
 */
export const languageAgreementCheck: Check = {
  id: ID,
  run({ record }: CheckInput): Finding[] {
    const expected = record.language;
    // By message: requests that repeat the same surfaces say the same thing once.
    const problems = new Map<string, LanguageProblem>();
    if (record.seamLanguage !== undefined && record.seamLanguage !== expected) {
      const message = `the mounted code runtime (ctx.codeRuntime) speaks ${record.seamLanguage}, but the ${record.runtime} runtime should speak ${expected}`;
      problems.set(message, { severity: 'error', message });
    }
    for (const { request } of record.exchanges) {
      const surfaces = {
        section: request.system.find((s) => s.id === SDK_SECTION)?.text,
        runCode: request.tools.find((t) => t.name === RUN_CODE_TOOL),
      };
      for (const problem of languageProblems(surfaces, expected, `on the ${record.runtime} runtime`))
        problems.set(problem.message, problem);
    }
    return [...problems.values()].map((problem) => ({ check: ID, ...problem }));
  },
};

/** Something a surface says wrong (an error), or leaves unsaid where another surface says it (a note). */
export interface LanguageProblem {
  severity: 'error' | 'note';
  message: string;
}

/** What a model reads of the language it writes in: the `tools:sdk` section and the `run_code` tool, each if sent. */
export interface LanguageSurfaces {
  section?: string | undefined;
  runCode?: RunCodeFunction | undefined;
}

/** The `run_code` function as a request carries it: its description may be missing, which is a finding. */
export interface RunCodeFunction {
  name: string;
  description?: string | undefined;
  parameters?: unknown;
  /** The program is the tool's whole input (an OpenAI custom tool, free-form text): it has no `code` parameter. */
  freeform?: boolean | undefined;
}

/**
 * What disagrees with `expected` on the surfaces of one request: the fence, the prose around the block, the usage
 * header and the declarations, the `run_code` description and its `code` parameter's. `context` says where the
 * request was met (`on the python runtime`, `in request.json $.system`), `runCodeContext` where the `run_code`
 * function was, when that is another place (`in request.json $.tools[0]`).
 */
export function languageProblems(
  surfaces: LanguageSurfaces,
  expected: Language,
  context: string,
  runCodeContext: string = context,
): LanguageProblem[] {
  const problems: LanguageProblem[] = [];
  const error = (message: string) => problems.push({ severity: 'error', message });
  const name = LANGUAGE_NAME[expected];
  const foreign = otherLanguage(expected);
  // A surface is named with the place it was met and the language expected there: `the run_code description in
  // body.json $.tools[0] (Python)`.
  const where = `${context} (${name})`;
  const runCodeWhere = `${runCodeContext} (${name})`;
  const speaksForeign = (surface: string, markers: string[]) => {
    if (markers.length > 0)
      error(`${surface} speaks ${LANGUAGE_NAME[foreign]}: ${markers.join(', ')}; expected ${name} only`);
  };

  const section = surfaces.section;
  if (section !== undefined) {
    const read = readSdkSection(section);
    if (read.block === undefined) {
      error(`the ${SDK_SECTION} section ${where} ${read.problem}, so its language cannot be read`);
    } else {
      const { block } = read;
      const fenceWords = SDK_FENCE_WORDS[expected].map((w) => JSON.stringify(w)).join(' or ');
      if (block.language !== expected)
        error(`the ${SDK_SECTION} fence ${where} says ${JSON.stringify(block.info)}; expected ${fenceWords}`);
      // The prose around the block is the backend's own guide to writing programs: judged like a description.
      speaksForeign(
        `the ${SDK_SECTION} prose around the block ${where}`,
        proseMarkersOf(foreign, block.before + block.after),
      );
      const { header, code } = sdkParts(expected, block.body);
      speaksForeign(`the ${SDK_SECTION} usage header ${where}`, proseMarkersOf(foreign, header));
      speaksForeign(`the ${SDK_SECTION} declarations ${where}`, codeMarkersOf(foreign, code));
    }
  }

  const { runCode } = surfaces;
  if (runCode !== undefined) {
    const naming = NAMING[expected];
    const names = (text: string | undefined) => text !== undefined && naming.pattern.test(withoutRuledOut(text));
    const toolSurface = `the ${runCode.name} description ${runCodeWhere}`;
    if (runCode.description === undefined) error(`${toolSurface} is missing`);
    else {
      if (!names(runCode.description)) error(`${toolSurface} never names ${naming.names}`);
      speaksForeign(toolSurface, proseMarkersOf(foreign, runCode.description));
    }
    // A tool whose whole input is the program has no `code` parameter to describe it.
    if (!runCode.freeform) {
      const parameter = codeParameter(runCode.parameters);
      const code = typeof parameter?.description === 'string' ? parameter.description : undefined;
      const surface = `the ${runCode.name} \`code\` parameter description ${runCodeWhere}`;
      const unsaid = code === undefined ? 'is missing' : names(code) ? undefined : `never names ${naming.names}`;
      // A `code` parameter that does not say the language tells the model nothing wrong: when the tool's own
      // description says it, that is a note (a function with no `code` parameter has nowhere to put the program).
      if (unsaid !== undefined && parameter !== undefined && names(runCode.description))
        problems.push({
          severity: 'note',
          message: `${surface} ${unsaid}: the model is told the language by the ${runCode.name} description alone`,
        });
      else if (unsaid !== undefined) error(`${surface} ${unsaid}`);
      if (code !== undefined) speaksForeign(surface, proseMarkersOf(foreign, code));
    }
  }
  return problems;
}

/**
 * How a description names the language programs are written in: a runtime of the TypeScript family that runs
 * JavaScript (type annotations stripped, or none written) is told so as rightly as one that takes TypeScript.
 */
const NAMING: Readonly<Record<Language, { pattern: RegExp; names: string }>> = {
  typescript: { pattern: /\b(?:TypeScript|JavaScript)\b/, names: 'TypeScript or JavaScript' },
  python: { pattern: /\bPython\b/, names: 'Python' },
};

/** The schema of the `code` parameter a function's parameters declare, when they declare one as an object. */
export function codeParameter(parameters: unknown): { type?: unknown; description?: unknown } | undefined {
  const code = (parameters as { properties?: { code?: unknown } } | null)?.properties?.code;
  return typeof code === 'object' && code !== null && !Array.isArray(code) ? code : undefined;
}
