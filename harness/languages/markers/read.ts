import type { LanguagePack } from '../pack.js';
import { LANGUAGE_PACKS } from '../packs.js';
import type { Marker } from './types.js';
import {
  DENIALS,
  FILLER_REACH,
  FILLERS,
  joinersPattern,
  LIST_JOINERS,
  LIST_REACH,
  LOOK_BACK_SPACES,
  NEGATIONS,
  VALUE_NEGATIONS,
  wordsPattern,
} from './words.js';

const PACKS = Object.values(LANGUAGE_PACKS);

/** The names of every language and its runtimes, as prose says them. */
const NAMES = String.raw`${wordsPattern(PACKS.flatMap((pack) => pack.markers.names))}\b`;
const IDENTIFIER = String.raw`[\p{ID_Start}_$][\p{ID_Continue}$]{0,100}`;
/**
 * A piece of code as prose names it: in backticks (`` `console.log` ``, `` `async def` ``), a call (`print()`,
 * `console.log(x)`) or a member (`console.log`, `self.name`).
 */
const CODE = String.raw`(?:\x60[^\x60\n]{1,200}\x60|${IDENTIFIER}(?:(?:\.${IDENTIFIER}){1,4}(?:\([^()\n]{0,100}\))?|\([^()\n]{0,100}\)))`;
const MENTION = String.raw`(?:${NAMES}|${CODE})`;
/** Names or code, and a short list of them after the first: `, TypeScript`, `or Python`, `/ JavaScript`, `or print()`. */
const MENTIONS = String.raw`${MENTION}(?:\s*${joinersPattern(LIST_JOINERS)}\s*${MENTION}){0,${LIST_REACH}}`;

/**
 * A value of a language named to rule it out ("null, not None"), never the language's own test (`is not None`). The
 * look back is bounded and made only at a word's start: unbounded, a long run of spaces is read again from each.
 */
const ruledOutValues = PACKS.flatMap(({ markers: { ruledOutValues: rule } }) =>
  rule === undefined
    ? []
    : [
        String.raw`\b(?<!\b${wordsPattern(rule.unlessAfter)}\s{1,${LOOK_BACK_SPACES}})` +
          String.raw`${wordsPattern(VALUE_NEGATIONS)}\s+${wordsPattern(rule.values)}\b`,
      ],
);

/**
 * A language, or a piece of its code, named only to rule it out: "Write Python, not JavaScript", "never TypeScript
 * or JavaScript", "there is no need to write any JavaScript", "JavaScript is not supported", "print with print(), not
 * console.log", "null, not None". Backends say so to steer the model, and a text that does speaks its own language.
 * Built from the word lists of words.ts and the packs' names and values.
 */
const RULED_OUT = new RegExp(
  [
    String.raw`\b${wordsPattern(NEGATIONS)}\s+(?:${wordsPattern(FILLERS)}\s+){0,${FILLER_REACH}}${MENTIONS}`,
    String.raw`(?<![\w$.])${MENTIONS}\s+${wordsPattern(DENIALS)}\b`,
    ...ruledOutValues,
  ].join('|'),
  'giu',
);

/** `text` with every language, and piece of code, it names only to rule out left out: what it says it speaks. */
export const withoutRuledOut = (text: string): string => text.replace(RULED_OUT, ' ');

/** The marker of a language's names in prose (`the name Python/CPython/Pyodide`). */
const nameMarker = (pack: LanguagePack): Marker => ({
  label: `the name ${pack.markers.names.join('/')}`,
  pattern: new RegExp(String.raw`\b${wordsPattern(pack.markers.names)}\b`),
});

/** Each marker found in `text`, with the first text it matched. */
function found(markers: readonly Marker[], text: string): string[] {
  return markers.flatMap(({ label, pattern }) => {
    const match = pattern.exec(text);
    return match ? [`${label} (${JSON.stringify(match[0].trim())})`] : [];
  });
}

/** Markers of `speaker` in prose; a mention of its name or code that rules it out is none. */
export const proseMarkersOf = (speaker: LanguagePack, text: string): string[] =>
  found([nameMarker(speaker), ...speaker.markers.prose], withoutRuledOut(text));

/** Markers of `speaker` in code whose comments and strings were removed. */
export const codeMarkersOf = (speaker: LanguagePack, code: string): string[] => found(speaker.markers.code, code);
