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
import { codeParameter, codeToolsOf, type ShownFunction } from '../../readers/model-view.js';
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
      const surfaces: Array<[LanguageSurfaces, string | undefined]> = [
        [{ section: request.sdkSection }, undefined],
        ...codeToolsOf(view, request).map((tool): [LanguageSurfaces, string | undefined] => [
          { runCode: tool },
          view.toolPlaces?.get(tool.name),
        ]),
      ];
      for (const [surface, place] of surfaces)
        for (const problem of languageProblems(surface, expected, view.place, place))
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
  const speaksForeign = (surface: string, markersOf: (other: LanguagePack) => string[]) =>
    problems.push(...foreignSpeech(surface, markersOf, pack, others));

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

  if (surfaces.runCode !== undefined) problems.push(...codeToolProblems(surfaces.runCode, pack, others, runCodeWhere));
  return problems;
}

/** What `surface` says in each of `others` (an error per language it speaks), as `markersOf` finds it. */
function foreignSpeech(
  surface: string,
  markersOf: (other: LanguagePack) => string[],
  pack: LanguagePack,
  others: readonly LanguagePack[],
): LanguageProblem[] {
  return others.flatMap((other) => {
    const markers = markersOf(other);
    return markers.length === 0
      ? []
      : [
          {
            severity: 'error',
            message: `${surface} speaks ${other.name}: ${markers.join(', ')}; expected ${pack.name} only`,
          },
        ];
  });
}

/**
 * What a function that runs programs says of the language, on its description and its `code` parameter's: each must
 * speak no other language, and the model must be told the language by one of them. The one that does not name it is
 * a note when the other does; an error when neither does, or when the function has no `code` parameter at all (nowhere
 * to send the program). A tool whose whole input is the program has no `code` parameter to describe it.
 */
function codeToolProblems(
  runCode: ShownFunction,
  pack: LanguagePack,
  others: readonly LanguagePack[],
  where: string,
): LanguageProblem[] {
  const problems: LanguageProblem[] = [];
  const error = (message: string) => problems.push({ severity: 'error', message });
  const names = (text: string | undefined) => text !== undefined && pack.naming.pattern.test(withoutRuledOut(text));
  const toolSurface = `the ${runCode.name} description ${where}`;
  const parameter = runCode.freeform ? undefined : codeParameter(runCode.parameters);
  const code = typeof parameter?.description === 'string' ? parameter.description : undefined;
  const codeSurface = `the ${runCode.name} \`code\` parameter description ${where}`;
  const toolNames = names(runCode.description);
  const codeNames = names(code);
  if (runCode.description === undefined) error(`${toolSurface} is missing`);
  else {
    if (!toolNames && codeNames)
      problems.push({
        severity: 'note',
        message: `${toolSurface} never names ${pack.naming.names}: the model is told the language by its \`code\` parameter alone`,
      });
    else if (!toolNames) error(`${toolSurface} never names ${pack.naming.names}`);
    const description = runCode.description;
    problems.push(...foreignSpeech(toolSurface, (other) => proseMarkersOf(other, description), pack, others));
  }
  if (runCode.freeform) return problems;
  const unsaid = code === undefined ? 'is missing' : codeNames ? undefined : `never names ${pack.naming.names}`;
  // A `code` parameter that does not say the language tells the model nothing wrong when the tool's description says
  // it (a function with no `code` parameter has nowhere to put the program).
  if (unsaid !== undefined && parameter !== undefined && toolNames)
    problems.push({
      severity: 'note',
      message: `${codeSurface} ${unsaid}: the model is told the language by the ${runCode.name} description alone`,
    });
  else if (unsaid !== undefined) error(`${codeSurface} ${unsaid}`);
  if (code !== undefined)
    problems.push(...foreignSpeech(codeSurface, (other) => proseMarkersOf(other, code), pack, others));
  return problems;
}
