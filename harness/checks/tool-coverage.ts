import { RUN_CODE_TOOL } from '../../contract/backend.js';
import type { Language } from '../../runtimes/seam/types.js';
import { DEFAULT_TOOLS_OBJECT, LANGUAGE_PACKS, LANGUAGES } from '../languages/index.js';
import type { CoverageLevel } from '../project/config.js';
import { isRuntimeName, runtimeLanguage } from '../runtime-names.js';
import type { Session } from '../session.js';
import { type RunRecord, sdkBlockOf } from '../snapshot/transcript.js';
import { registeredTools } from './view-of-record.js';

/** The tools one pair's app registered, and the ones its programs (or the model, for native tools) called. */
export interface PairTools {
  registered: string[];
  called: string[];
}

/**
 * What a pair's record says of its tools: from the runtime seam, else the native tools, else the SDK the model read.
 */
export async function pairTools(record: RunRecord, session: Pick<Session, 'cache' | 'slot'>): Promise<PairTools> {
  const first = record.exchanges[0]?.request;
  const sdk = sdkBlockOf(first)?.body;
  const registered =
    registeredTools(record)?.names ??
    (sdk === undefined
      ? []
      : (await LANGUAGE_PACKS[record.language].readNames(sdk, session, DEFAULT_TOOLS_OBJECT)).reaches.flatMap(
          (r) => r.reaches ?? [],
        ));
  const known = new Set(registered);
  const called = new Set<string>();
  for (const program of record.programs)
    for (const call of program.calls) if (known.has(call.tool)) called.add(call.tool);
  for (const exchange of record.exchanges)
    for (const call of exchange.response?.toolCalls ?? [])
      if (call.name !== RUN_CODE_TOOL && known.has(call.name)) called.add(call.name);
  const sorted = (names: Iterable<string>) => [...new Set(names)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { registered: sorted(registered), called: sorted(called) };
}

/** Registered tools of one language that no program of the run called, and how many scenarios registered them. */
export interface UncalledTools {
  language: Language;
  tools: string[];
  scenarios: number;
}

/** The run's tool coverage: what is uncalled per language, and whether that fails the gate. */
export interface ToolCoverage {
  level: CoverageLevel;
  uncalled: UncalledTools[];
}

/**
 * Per language, the tools some pair of the run registered that no pair of that language called (a tool
 * called on the TypeScript worker only is still uncalled in Python). Pairs that did not run say nothing.
 */
export function toolCoverage(
  pairs: ReadonlyArray<{ scenario: string; runtime: string; tools?: PairTools }>,
  level: CoverageLevel = 'warn',
): ToolCoverage {
  const uncalled: UncalledTools[] = [];
  for (const language of LANGUAGES) {
    const mine = pairs.filter(
      (p) => p.tools !== undefined && isRuntimeName(p.runtime) && runtimeLanguage(p.runtime) === language,
    );
    if (mine.length === 0) continue;
    const called = new Set(mine.flatMap((p) => p.tools!.called));
    const tools = [...new Set(mine.flatMap((p) => p.tools!.registered))]
      .filter((t) => !called.has(t))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (tools.length > 0) uncalled.push({ language, tools, scenarios: new Set(mine.map((p) => p.scenario)).size });
  }
  return { level, uncalled };
}

/** Whether the coverage fails the gate: uncalled tools under `coverage: { uncalled: error }`. */
export const coverageFails = (coverage: ToolCoverage | undefined): boolean =>
  coverage !== undefined && coverage.level === 'error' && coverage.uncalled.length > 0;

/** One sentence per language with uncalled tools, as every report says it. */
export function coverageSentences(coverage: ToolCoverage | undefined): string[] {
  return (coverage?.uncalled ?? []).map(
    (u) =>
      `${u.language}: ${u.tools.length} registered tool(s) no scenario's program called (of ${u.scenarios} scenario(s)): ${u.tools.join(', ')}`,
  );
}

/** What to do about uncalled tools, said once under the list. */
export const COVERAGE_HINT =
  "call each tool from some scenario's program, so the gate sees its SDK text and its runtime round trip; `coverage: { uncalled: error }` in concord.config.yml makes this fail the gate";
