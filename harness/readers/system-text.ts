import { readSdkSection, sectionFences } from '../../contract/sdk-section.js';
import { joinedDeclarationFences, joinedPlace } from './declaration-fences.js';

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
 * text as a `tools:sdk` section when one of its fences names a language; declarations in several fences beside
 * example programs are one SDK, joined as such. Undefined when no fence of it names a language.
 */
export function systemTextSdk(text: string): SystemTextSdk | undefined {
  const named = sectionFences(text).filter((fence) => fence.language !== undefined);
  if (named.length === 0) return undefined;
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
