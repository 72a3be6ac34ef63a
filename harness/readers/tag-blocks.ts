import { fencedBlock } from '../../contract/sdk-section.js';
import { textLines } from '../../contract/text-lines.js';
import { LANGUAGE_PACKS, LANGUAGES, type LanguagePack } from '../languages/index.js';
import { holdsOnlyDeclarations } from './declaration-fences.js';

/**
 * A block a prompt writes between tags on lines of their own instead of a fence: the code-agent style (`<code>` …
 * `</code>`, whichever tags the prompt declares) and the module catalogs some sandboxes list their tools in
 * (`<tools-package>` … `</tools-package>`).
 */
export interface TagBlock {
  /** The tag's name. */
  tag: string;
  /** The 1-based lines of the opening and the closing tag. */
  openLine: number;
  closeLine: number;
  body: string;
}

/** A tag alone on its line, attributes allowed: `<code>`, `<module name="tools.notes">`. */
const OPENING_TAG = /^[ \t]*<([A-Za-z][\w.:-]{0,100})(?:[ \t][^<>]*)?>[ \t]*$/;
/** A tag's closing line: `</code>`, or the code-agent style's `<end_code>`. */
const closingTag = (tag: string) => {
  const name = tag.replace(/[.]/g, '\\.');
  return new RegExp(`^[ \\t]*<(?:/${name}|end_${name})>[ \\t]*$`);
};
/** A closing fence the code-agent style ends with its stop word: ` ```<end_code> `. */
const FENCE_THEN_STOP = /^( {0,3}(?:`{3,}|~{3,}))[ \t]*<end_[\w-]{1,100}>[ \t]*$/;

/**
 * The innermost tag blocks of a text: an opening tag alone on its line, the first closing tag of its name alone on a
 * later line, and no tag line between them (an outer block, such as a `<code-mode>` that wraps several, holds text
 * and tags, not code).
 */
export function tagBlocks(text: string): TagBlock[] {
  const lines = textLines(text);
  const blocks: TagBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const tag = OPENING_TAG.exec(lines[i]!.text)?.[1];
    if (tag === undefined) continue;
    const closing = closingTag(tag);
    let j = i + 1;
    while (j < lines.length && !closing.test(lines[j]!.text) && !OPENING_TAG.test(lines[j]!.text)) j++;
    if (j >= lines.length || !closing.test(lines[j]!.text)) continue;
    const body = lines
      .slice(i + 1, j)
      .map((line) => `${line.text}\n`)
      .join('');
    blocks.push({ tag, openLine: i + 1, closeLine: j + 1, body });
    i = j;
  }
  return blocks;
}

/** The language whose code a block only declares in, when exactly one does. */
function declaringLanguage(body: string): LanguagePack | undefined {
  const declaring = LANGUAGES.filter((language) => holdsOnlyDeclarations(language, body));
  return declaring.length === 1 ? LANGUAGE_PACKS[declaring[0]!] : undefined;
}

/**
 * The text with each tag block that only declares written as a fence naming its language, on the same lines (the tag
 * lines become the fence lines), and each closing fence's stop word (` ```<end_code> `) dropped, so the fence readers
 * read it as they read a fenced SDK. Blocks of example programs stay as they are: prose. Undefined when nothing
 * changed.
 */
export function tagsAsFences(text: string): string | undefined {
  const declaring = tagBlocks(text).flatMap((block) => {
    const pack = declaringLanguage(block.body);
    return pack === undefined ? [] : [{ block, pack }];
  });
  const lines = textLines(text).map((line) => line.text);
  const stops = lines.some((line) => FENCE_THEN_STOP.test(line));
  if (declaring.length === 0 && !stops) return undefined;
  const out: string[] = [];
  let next = 0;
  const copyUpTo = (end: number) => {
    for (; next < end; next++) out.push(lines[next]!.replace(FENCE_THEN_STOP, '$1'));
  };
  for (const { block, pack } of declaring) {
    copyUpTo(block.openLine - 1);
    out.push(fencedBlock(block.body, pack.fenceWords[0]!));
    next = block.closeLine;
  }
  copyUpTo(lines.length);
  return `${out.join('\n')}${text.endsWith('\n') ? '\n' : ''}`;
}
