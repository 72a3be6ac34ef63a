import type { Language } from '../../../runtimes/seam/types.js';
import { typescriptVersion } from '../../../runtimes/seam/typescript.js';
import { sha256, type VerdictCache } from '../../cache/verdict-cache.js';
import { pythonSdkNames } from './python.js';
import type { Declared, Reach, SdkNames } from './types.js';
import { typescriptSdkNames } from './typescript.js';

export type { Declared, Reach, SdkNames } from './types.js';

export function sdkNames(language: Language, sdk: string): SdkNames {
  return language === 'python' ? pythonSdkNames(sdk) : typescriptSdkNames(sdk);
}

const place = (v: Record<string, unknown>) => Number.isSafeInteger(v.line) && Number.isSafeInteger(v.column);
const isNames = (value: unknown): value is { declared: Declared[]; reaches: Reach[] } => {
  if (value === null || typeof value !== 'object') return false;
  const { declared, reaches } = value as Record<string, unknown>;
  return (
    Array.isArray(declared) &&
    declared.every((d: Record<string, unknown>) => typeof d?.name === 'string' && place(d)) &&
    Array.isArray(reaches) &&
    reaches.every(
      (r: Record<string, unknown>) =>
        typeof r?.spelled === 'string' &&
        (r.how === 'method' || r.how === 'subscript') &&
        (r.reaches === undefined || typeof r.reaches === 'string') &&
        place(r),
    )
  );
};

/**
 * `sdkNames`, with a TypeScript block's from `cache` when an earlier run read the same block with the same
 * compiler: the compiler (about half a second of CPU to load) is then not loaded for it. Python blocks are
 * read without a compiler, so they are never cached.
 */
export async function cachedSdkNames(
  language: Language,
  sdk: string,
  cache: VerdictCache | undefined,
): Promise<SdkNames> {
  if (language === 'python' || cache === undefined) return sdkNames(language, sdk);
  const parts = [`typescript ${typescriptVersion()}`, sha256(sdk)];
  const kept = await cache.get('sdk-names', parts, isNames);
  if (kept !== undefined) return { declared: kept.declared, reaches: kept.reaches, normalize: (name) => name };
  const names = typescriptSdkNames(sdk);
  await cache.put('sdk-names', parts, { declared: names.declared, reaches: names.reaches });
  return names;
}

export interface Registered {
  names: readonly string[];
  /** Whether `names` is every registered tool (then an offered name no tool has is a problem too). */
  complete: boolean;
}

const NORMALIZATION: Readonly<Record<Language, string>> = { python: 'after NFKC', typescript: 'as written' };

const show = (r: Reach) =>
  `${r.how === 'method' ? 'method' : 'listed'} ${r.spelled} (line ${r.line}, column ${r.column})`;

/**
 * What is wrong with the names of an SDK block: two top-level declarations that are one name after the
 * language's normalization (the later silently shadows the earlier), and — given the registered tools —
 * a tool no method or listed name reaches, or one reached more than once.
 */
export function namingProblems(language: Language, names: SdkNames, registered?: Registered): string[] {
  const problems: string[] = [];
  const byName = new Map<string, SdkNames['declared']>();
  for (const d of names.declared) {
    const key = names.normalize(d.name);
    byName.set(key, [...(byName.get(key) ?? []), d]);
  }
  for (const [key, group] of byName) {
    if (group.length < 2) continue;
    const spelled = group.map((d) => `${d.name} (line ${d.line}, column ${d.column})`).join(', ');
    problems.push(
      `declared names collide: ${spelled} are one name ${NORMALIZATION[language]} (${key}); the last one shadows the others`,
    );
  }
  if (registered === undefined) return problems;
  const wanted = new Set(registered.names);
  for (const tool of registered.names) {
    const ways = names.reaches.filter((r) => r.reaches === tool);
    if (ways.length === 1) continue;
    if (ways.length > 1) {
      problems.push(`tool ${JSON.stringify(tool)} is reachable ${ways.length} times: ${ways.map(show).join('; ')}`);
      continue;
    }
    // What a reader would take for the tool: its own spelling, or a look-alike that normalizes elsewhere.
    const near = names.reaches.filter(
      (r) => r.spelled === tool || (r.spelled !== r.reaches && names.normalize(r.spelled) === names.normalize(tool)),
    );
    const hint = near
      .map(
        (r) =>
          `${show(r)} reaches ${r.reaches === undefined ? 'nothing (a mangled private name)' : JSON.stringify(r.reaches)}`,
      )
      .join('; ');
    problems.push(
      `tool ${JSON.stringify(tool)} is not reachable from the SDK: no method and no listed name reaches it${hint ? ` (${hint})` : ''}`,
    );
  }
  if (registered.complete) {
    for (const r of names.reaches) {
      if (r.reaches !== undefined && !wanted.has(r.reaches))
        problems.push(`${show(r)} offers ${JSON.stringify(r.reaches)}, but no tool of that name is registered`);
    }
  }
  return problems;
}
