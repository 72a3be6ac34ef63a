import { type SectionFence, sectionFences } from '../../contract/sdk-section.js';
import type { Language } from '../../runtimes/seam/types.js';
import { compilerOutOfStack } from '../../runtimes/seam/typescript.js';
import { LANGUAGE_PACKS } from '../languages/index.js';

/** What a parser reads of code, or false when it runs out of stack on deeply nested code (it reads nothing of it). */
function readWithin(read: () => boolean): boolean {
  try {
    return read();
  } catch (thrown) {
    if (compilerOutOfStack(thrown)) return false;
    throw thrown;
  }
}

/**
 * Whether a fence's code only declares, in its language: types, classes, functions and names a program calls,
 * with no statement that runs (an example program computes, awaits or ends with a value). Code that does not
 * parse, or holds nothing but comments, declares nothing.
 */
export function holdsOnlyDeclarations(language: Language, code: string): boolean {
  return readWithin(() => LANGUAGE_PACKS[language].declaresOnly(code));
}

/** Whether code declares anything a program could call or name, in its language: an SDK does, an example does not. */
export function declaresSome(language: Language, code: string): boolean {
  return readWithin(() => LANGUAGE_PACKS[language].declaresSome(code));
}

/** An SDK that stands in several fences of a text, joined as one `tools:sdk` section. */
export interface JoinedFences {
  section: string;
  /** The 1-based lines of the fences that were joined, in order. */
  lines: number[];
}

/**
 * The SDK of a text whose fences naming one language are both declarations and example programs, as some
 * renderers write a code tool's description (an example program, then the types in one fence and the functions
 * in the next): a `tools:sdk` section whose one block is the declaring fences' code, joined in order where the
 * first of them stood; the others removed, and each example fence kept in the prose without its language.
 * Undefined unless at least two fences name a language, all the same one and all closed, and at least one of them
 * only declares.
 */
export function joinedDeclarationFences(text: string): JoinedFences | undefined {
  const fences = sectionFences(text);
  const named = fences.filter((fence) => fence.language !== undefined);
  const language = named[0]?.language;
  if (named.length < 2 || named.some((fence) => fence.language !== language || fence.closing === undefined))
    return undefined;
  const declaring = new Set(named.filter((fence) => holdsOnlyDeclarations(language!, fence.body)));
  if (declaring.size === 0) return undefined;
  const [first] = declaring;
  let section = '';
  let at = 0;
  for (const fence of named) {
    section += text.slice(at, fence.start);
    at = fence.end;
    if (fence === first) {
      const code = [...declaring].map((part) => part.body.replace(/\n+$/, '\n')).join('\n\n');
      section += `${fence.opening}\n${code}${fence.closing!}\n`;
    } else if (!declaring.has(fence)) {
      section += `${proseOpening(fence)}\n${fence.body}${fence.closing!}\n`;
    }
  }
  section += text.slice(at);
  return { section, lines: [...declaring].map((fence) => fence.line) };
}

/** The fence's opening line without its info string: the code it opens is prose of the section. */
function proseOpening(fence: SectionFence): string {
  return fence.opening.replace(/^(\s*(?:`+|~+)).*$/, '$1');
}

/**
 * How a place names an SDK read from fences beside examples: ` (the declarations of its fences at lines 12 and 22,
 * joined)`, ` (the declarations of its fence at line 12)`.
 */
export function joinedPlace(lines: readonly number[]): string {
  if (lines.length === 1) return ` (the declarations of its fence at line ${lines[0]})`;
  return ` (the declarations of its fences at lines ${lines.slice(0, -1).join(', ')} and ${lines.at(-1)}, joined)`;
}
