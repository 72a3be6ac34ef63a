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
    const problems = new Set<string>();
    if (record.seamLanguage !== undefined && record.seamLanguage !== expected) {
      problems.add(
        `the mounted code runtime (ctx.codeRuntime) speaks ${record.seamLanguage}, but the ${record.runtime} runtime should speak ${expected}`,
      );
    }
    for (const { request } of record.exchanges) {
      const surfaces = {
        section: request.system.find((s) => s.id === SDK_SECTION)?.text,
        runCode: request.tools.find((t) => t.name === RUN_CODE_TOOL),
      };
      for (const problem of languageProblems(surfaces, expected, `on the ${record.runtime} runtime`))
        problems.add(problem);
    }
    return [...problems].map((message) => ({ check: ID, severity: 'error', message }));
  },
};

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
): string[] {
  const problems: string[] = [];
  const name = LANGUAGE_NAME[expected];
  const foreign = otherLanguage(expected);
  // A surface is named with the place it was met and the language expected there: `the run_code description in
  // body.json $.tools[0] (Python)`.
  const where = `${context} (${name})`;
  const runCodeWhere = `${runCodeContext} (${name})`;
  const speaksForeign = (surface: string, markers: string[]) => {
    if (markers.length > 0)
      problems.push(`${surface} speaks ${LANGUAGE_NAME[foreign]}: ${markers.join(', ')}; expected ${name} only`);
  };

  const section = surfaces.section;
  if (section !== undefined) {
    const read = readSdkSection(section);
    if (read.block === undefined) {
      problems.push(`the ${SDK_SECTION} section ${where} ${read.problem}, so its language cannot be read`);
    } else {
      const { block } = read;
      const fenceWords = SDK_FENCE_WORDS[expected].map((w) => JSON.stringify(w)).join(' or ');
      if (block.language !== expected)
        problems.push(`the ${SDK_SECTION} fence ${where} says ${JSON.stringify(block.info)}; expected ${fenceWords}`);
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
    const surfaces: Array<[string, string | undefined]> = [
      [`the ${runCode.name} description ${runCodeWhere}`, runCode.description],
    ];
    // A tool whose whole input is the program has no `code` parameter to describe it.
    if (!runCode.freeform) {
      const code = codeParameter(runCode.parameters)?.description;
      surfaces.push([
        `the ${runCode.name} \`code\` parameter description ${runCodeWhere}`,
        typeof code === 'string' ? code : undefined,
      ]);
    }
    for (const [surface, text] of surfaces) {
      if (text === undefined) {
        problems.push(`${surface} is missing`);
        continue;
      }
      const naming = NAMING[expected];
      if (!naming.pattern.test(withoutRuledOut(text))) problems.push(`${surface} never names ${naming.names}`);
      speaksForeign(surface, proseMarkersOf(foreign, text));
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
