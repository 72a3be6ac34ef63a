import type { Language } from '../../../runtimes/seam/types.js';
import { typescriptVersion } from '../../../runtimes/seam/typescript.js';
import { sha256 } from '../../cache/verdict-cache.js';
import type { Session } from '../../session.js';
import { nameList } from '../../text/name-list.js';
import { TYPESCRIPT_COMPILER, type TypeScriptCompiler } from '../typescript-compiler.js';
import { pythonSdkNames } from './python.js';
import { DEFAULT_TOOLS_OBJECT, type Reach, type SdkNames } from './types.js';
import { typescriptSdkNames } from './typescript.js';

export type { Collision, Declared, Reach, SdkNames } from './types.js';
export { DEFAULT_TOOLS_OBJECT };

/**
 * The names of an SDK block, its tools read off `object` (the name the backend's runtime binds them under); a
 * TypeScript one is read by `compiler` (the session's).
 */
export function sdkNames(
  language: Language,
  sdk: string,
  compiler: () => TypeScriptCompiler,
  object: string = DEFAULT_TOOLS_OBJECT,
): SdkNames {
  return language === 'python' ? pythonSdkNames(sdk, object) : typescriptSdkNames(compiler(), sdk, object);
}

const place = (v: Record<string, unknown>) => Number.isSafeInteger(v.line) && Number.isSafeInteger(v.column);
const isDeclared = (d: Record<string, unknown>) => typeof d?.name === 'string' && place(d);
const isNames = (value: unknown): value is Omit<SdkNames, 'normalize'> => {
  if (value === null || typeof value !== 'object') return false;
  const { declared, reaches, collisions, bindings } = value as Record<string, unknown>;
  return (
    Array.isArray(bindings) &&
    bindings.every((b) => typeof b === 'string') &&
    Array.isArray(declared) &&
    declared.every(isDeclared) &&
    Array.isArray(collisions) &&
    collisions.every(
      (c: Record<string, unknown>) =>
        typeof c?.key === 'string' && Array.isArray(c.declarations) && c.declarations.every(isDeclared),
    ) &&
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
 * `sdkNames` with the session's compiler, a TypeScript block's taken from the session's verdict cache when an
 * earlier run read the same block off the same object with the same compiler: the compiler (about half a second of CPU to load) is
 * then not loaded for it. Python blocks are parsed in a moment, so they are never cached.
 */
export async function cachedSdkNames(
  language: Language,
  sdk: string,
  session: Pick<Session, 'cache' | 'slot'>,
  object: string = DEFAULT_TOOLS_OBJECT,
): Promise<SdkNames> {
  const compiler = () => session.slot(TYPESCRIPT_COMPILER);
  const { cache } = session;
  if (language === 'python' || cache === undefined) return sdkNames(language, sdk, compiler, object);
  const parts = [`typescript ${typescriptVersion()}`, 'checker', `object ${object}`, sha256(sdk)];
  const kept = await cache.get('sdk-names', parts, isNames);
  if (kept !== undefined) return { ...kept, normalize: (name) => name };
  const names = typescriptSdkNames(compiler(), sdk, object);
  await cache.put('sdk-names', parts, {
    declared: names.declared,
    reaches: names.reaches,
    collisions: names.collisions,
    bindings: names.bindings,
  });
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
  for (const { key, declarations } of names.collisions) {
    const spelled = declarations.map((d) => `${d.name} (line ${d.line}, column ${d.column})`).join(', ');
    problems.push(
      `declared names collide: ${spelled} are one name ${NORMALIZATION[language]} (${key}); the last one shadows the others`,
    );
  }
  if (registered === undefined) return problems;
  const wanted = new Set(registered.names);
  const unreachable: string[] = [];
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
    if (near.length === 0) {
      unreachable.push(tool);
      continue;
    }
    const hint = near
      .map(
        (r) =>
          `${show(r)} reaches ${r.reaches === undefined ? 'nothing (a mangled private name)' : JSON.stringify(r.reaches)}`,
      )
      .join('; ');
    problems.push(
      `tool ${JSON.stringify(tool)} is not reachable from the SDK: no method and no listed name reaches it (${hint})`,
    );
  }
  // One problem for every tool it hits: a renderer that drops 40 tools is one fault.
  if (unreachable.length === 1)
    problems.push(
      `tool ${JSON.stringify(unreachable[0])} is not reachable from the SDK: no method and no listed name reaches it`,
    );
  if (unreachable.length > 1)
    problems.push(
      `${unreachable.length} tools are not reachable from the SDK: no method and no listed name reaches ${nameList(unreachable.map((t) => JSON.stringify(t)))}`,
    );
  if (registered.complete) {
    const strays = names.reaches.filter((r) => r.reaches !== undefined && !wanted.has(r.reaches));
    if (strays.length === 1)
      problems.push(
        `${show(strays[0]!)} offers ${JSON.stringify(strays[0]!.reaches)}, but no tool of that name is registered`,
      );
    if (strays.length > 1)
      problems.push(
        `${strays.length} names offer tools that are not registered: ${nameList(strays.map((r) => `${show(r)} offers ${JSON.stringify(r.reaches)}`))}`,
      );
  }
  return problems;
}
