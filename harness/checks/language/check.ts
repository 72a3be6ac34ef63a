import { TOOLS_SDK_SECTION as SDK_SECTION } from '../../../contract/backend.js';
import { readSdkSection } from '../../../contract/sdk-section.js';
import { type Finding, LANGUAGE_AGREEMENT } from '../../findings.js';
import {
  codeMarkersOf,
  LANGUAGE_PACKS,
  type LanguagePack,
  otherPacks,
  proseMarkersOf,
  sdkParts,
  withoutRuledOut,
} from '../../languages/index.js';
import { codeParameter, codeToolOf, type ShownFunction } from '../../readers/model-view.js';
import type { CheckInput, ViewCheck } from '../types.js';

/**
 * The `tools:sdk` fence, the code tool's description, its `code` parameter description and the runtime all name
 * one language, and none of these surfaces (nor the prose around the SDK block) speaks another one. Requests that
 * repeat the same surfaces are judged once.
 */
export const languageAgreementCheck: ViewCheck = {
  id: LANGUAGE_AGREEMENT,
  run({ view, pair }: CheckInput): Finding[] {
    const expected = view.language;
    // By message: requests that repeat the same surfaces say the same thing once.
    const problems = new Map<string, LanguageProblem>();
    const seam = pair?.record.seamLanguage;
    if (seam !== undefined && seam !== expected) {
      const message = `the mounted code runtime (ctx.codeRuntime) speaks ${seam}, but the ${pair!.runtime.name} runtime should speak ${expected}`;
      problems.set(message, { severity: 'error', message });
    }
    for (const request of view.requests) {
      const surfaces = { section: request.sdkSection, runCode: codeToolOf(view, request) };
      for (const problem of languageProblems(surfaces, expected, view.place, view.codeToolPlace))
        problems.set(problem.message, problem);
    }
    for (const message of view.notes) problems.set(message, { severity: 'note', message });
    return [...problems.values()].map((problem) => ({ check: LANGUAGE_AGREEMENT, ...problem }));
  },
};

/** Something a surface says wrong (an error), or leaves unsaid where another surface says it (a note). */
export interface LanguageProblem {
  severity: 'error' | 'note';
  message: string;
}

/** What a model reads of the language it writes in: the `tools:sdk` section and the code tool, each if sent. */
export interface LanguageSurfaces {
  section?: string | undefined;
  runCode?: ShownFunction | undefined;
}

/**
 * What disagrees with `expected` on the surfaces of one request: the fence, the prose around the block, the usage
 * header and the declarations, the code tool's description and its `code` parameter's. `context` says where the
 * request was met (`on the python runtime`, `in request.json $.system`), `runCodeContext` where the code tool was,
 * when that is another place (`in request.json $.tools[0]`).
 */
export function languageProblems(
  surfaces: LanguageSurfaces,
  expected: LanguagePack['language'],
  context: string,
  runCodeContext: string = context,
): LanguageProblem[] {
  const pack = LANGUAGE_PACKS[expected];
  const others = otherPacks(expected);
  const problems: LanguageProblem[] = [];
  const error = (message: string) => problems.push({ severity: 'error', message });
  // A surface is named with the place it was met and the language expected there: `the run_code description in
  // body.json $.tools[0] (Python)`.
  const where = `${context} (${pack.name})`;
  const runCodeWhere = `${runCodeContext} (${pack.name})`;
  const speaksForeign = (surface: string, markersOf: (other: LanguagePack) => string[]) => {
    for (const other of others) {
      const markers = markersOf(other);
      if (markers.length > 0)
        error(`${surface} speaks ${other.name}: ${markers.join(', ')}; expected ${pack.name} only`);
    }
  };

  const section = surfaces.section;
  if (section !== undefined) {
    const read = readSdkSection(section);
    if (read.block === undefined) {
      error(`the ${SDK_SECTION} section ${where} ${read.problem}, so its language cannot be read`);
    } else {
      const { block } = read;
      const fenceWords = pack.fenceWords.map((w) => JSON.stringify(w)).join(' or ');
      if (block.language !== expected)
        error(`the ${SDK_SECTION} fence ${where} says ${JSON.stringify(block.info)}; expected ${fenceWords}`);
      // The prose around the block is the backend's own guide to writing programs: judged like a description.
      const prose = block.before + block.after;
      speaksForeign(`the ${SDK_SECTION} prose around the block ${where}`, (other) => proseMarkersOf(other, prose));
      const { header, code } = sdkParts(pack, block.body);
      speaksForeign(`the ${SDK_SECTION} usage header ${where}`, (other) => proseMarkersOf(other, header));
      speaksForeign(`the ${SDK_SECTION} declarations ${where}`, (other) => codeMarkersOf(other, code));
    }
  }

  const { runCode } = surfaces;
  if (runCode !== undefined) {
    const names = (text: string | undefined) => text !== undefined && pack.naming.pattern.test(withoutRuledOut(text));
    const toolSurface = `the ${runCode.name} description ${runCodeWhere}`;
    if (runCode.description === undefined) error(`${toolSurface} is missing`);
    else {
      if (!names(runCode.description)) error(`${toolSurface} never names ${pack.naming.names}`);
      const description = runCode.description;
      speaksForeign(toolSurface, (other) => proseMarkersOf(other, description));
    }
    // A tool whose whole input is the program has no `code` parameter to describe it.
    if (!runCode.freeform) {
      const parameter = codeParameter(runCode.parameters);
      const code = typeof parameter?.description === 'string' ? parameter.description : undefined;
      const surface = `the ${runCode.name} \`code\` parameter description ${runCodeWhere}`;
      const unsaid = code === undefined ? 'is missing' : names(code) ? undefined : `never names ${pack.naming.names}`;
      // A `code` parameter that does not say the language tells the model nothing wrong: when the tool's own
      // description says it, that is a note (a function with no `code` parameter has nowhere to put the program).
      if (unsaid !== undefined && parameter !== undefined && names(runCode.description))
        problems.push({
          severity: 'note',
          message: `${surface} ${unsaid}: the model is told the language by the ${runCode.name} description alone`,
        });
      else if (unsaid !== undefined) error(`${surface} ${unsaid}`);
      if (code !== undefined) speaksForeign(surface, (other) => proseMarkersOf(other, code));
    }
  }
  return problems;
}
