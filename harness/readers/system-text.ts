import { readSdkSection, SDK_FENCE_WORDS, sectionFences } from '../../contract/sdk-section.js';
import { declaresSome, joinedDeclarationFences, joinedPlace } from './declaration-fences.js';
import { tagsAsFences } from './tag-blocks.js';

/** A text of the system prompt read for its SDK: the fences naming a language, and the text as a `tools:sdk` section. */
export interface SystemTextSdk {
  /** The text as a section: as written, or with declarations of several fences joined into one block. */
  section: string;
  /** Where the section stands in the text, after the text's own place (` (the declarations of its fence at line 12)`). */
  place: string;
  /** The fences of the section that name a language. */
  named: ReturnType<typeof sectionFences>;
  read: ReturnType<typeof readSdkSection>;
}

/**
 * The SDK a text of the system prompt holds, read the way `concord check` and the gate's model seam both read one: the
 * text as a `tools:sdk` section when one of its fences names a language, a block between tags on lines of their own
 * that only declares read as a fence of its language; declarations in several blocks beside example programs are one
 * SDK, joined as such. Undefined when no block of it names a language and declares anything: a prompt whose code is
 * all example programs shows no SDK.
 */
export function systemTextSdk(given: string): SystemTextSdk | undefined {
  // Code between tags on lines of their own (`<code>`, a module catalog's `<tools-package>`) reads as fences do.
  const text = tagsAsFences(given) ?? given;
  const named = sectionFences(text).filter((fence) => fence.language !== undefined);
  if (!named.some((fence) => declaresSome(fence.language!, fence.body))) return undefined;
  const read = readSdkSection(text);
  const joined = read.block === undefined ? joinedDeclarationFences(text) : undefined;
  if (joined === undefined) return { section: text, place: '', named, read };
  const section = joined.section;
  return {
    section,
    place: joinedPlace(joined.lines),
    named: sectionFences(section).filter((fence) => fence.language !== undefined),
    read: readSdkSection(section),
  };
}

/** Why texts whose code blocks show no SDK show none, when they hold code blocks: examples, or no language read. */
export function codeBlocksWithoutSdk(texts: readonly string[]): string | undefined {
  const fences = texts.flatMap((text) => sectionFences(text));
  if (fences.some((fence) => fence.language !== undefined))
    return 'its code blocks are example programs: none declares a tool';
  if (fences.length > 0)
    return `its code blocks name no language concord reads (${Object.values(SDK_FENCE_WORDS).flat().join(', ')})`;
  return undefined;
}
