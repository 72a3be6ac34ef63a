import type { Language } from '../../../runtimes/seam/types.js';

/** Something only one of the two languages says: its words in prose, or its syntax in code. */
export interface Marker {
  label: string;
  pattern: RegExp;
}

export const LANGUAGE_NAME: Readonly<Record<Language, string>> = { typescript: 'TypeScript', python: 'Python' };

/**
 * Markers of each language in model-facing prose: descriptions and the SDK's usage header, where code
 * snippets sit among English sentences. Each is shaped like code (a keyword with the punctuation that
 * follows it) so ordinary English ("None of the", "an interface that") does not trip it.
 */
const PROSE_MARKERS: Readonly<Record<Language, readonly Marker[]>> = {
  typescript: [
    { label: 'the name TypeScript/JavaScript', pattern: /\b(?:TypeScript|JavaScript)\b/ },
    { label: '`Promise<`', pattern: /\bPromise</ },
    { label: 'an `interface` declaration', pattern: /\binterface\s+[A-Za-z_$][\w$]*\s*(?:\{|<|extends\b)/ },
    {
      label: 'a `tools` call ended by `;`',
      // Bounded spans: unbounded, a line of thousands of unclosed calls is read again from each (quadratic time).
      pattern:
        /\bawait\s+tools\s*(?:\.\s*[\p{ID_Start}_$][\p{ID_Continue}$]*|\[[^\]\n]{0,200}\])\s*\([^;\n`]{0,1000}\)\s*;/u,
    },
    { label: '`console.`', pattern: /\bconsole\.[A-Za-z]+/ },
    { label: 'a `const`/`let`/`var` declaration', pattern: /\b(?:const|let|var)\s+(?:[A-Za-z_$][\w$]*\s*[:=]|[{[])/ },
    {
      label: 'a `declare` statement',
      pattern: /\bdeclare\s+(?:const|let|var|class|function|namespace|module|global|type|enum)\b/,
    },
    // An arrow function (`(a, b) =>`, `x => x.id`, `=> {`, one in backticks), not an arrow between two words, which
    // English writes too ("name => value"). A call before it (`search(q) => hits`) is no parameter list. Spans are
    // bounded, and the one before an arrow in backticks stops at the first arrow, so a line is read in linear time.
    {
      label: 'an arrow `=>`',
      pattern:
        /(?<![\w$])\([^()\n]{0,200}\)\s*=>|=>\s*(?:\{|\(\s*\{)|[\w$]\s*=>\s*[\w$]+(?:\.[A-Za-z_$]|\(|\[)|`(?:[^`\n=]|=(?!>)){0,200}=>[^`\n]{0,200}`/,
    },
    // Followed by code (`(city: string) =>`, `{ path: string }`, `n: number = 1`), not by words ("Returns: number of").
    {
      label: 'a TypeScript type annotation',
      pattern: /:\s*(?:string|number|boolean|unknown|never|void)\b(?=\s*(?:[;)}\]|=>]|\[\]))/,
    },
    // A value, not the English word ("the order is undefined"): in backticks, compared, in a union, or returned.
    { label: '`undefined`', pattern: /`undefined`|(?:===?|!==?|\||\?\?)\s*undefined\b|\breturns?\s+undefined\b/ },
    { label: 'an object spread `{ ...`', pattern: /\{\s*\.\.\.[A-Za-z_$]/ },
    { label: 'strict equality `===`/`!==`', pattern: /[=!]==/ },
    { label: 'a TypeScript generic type', pattern: /\b(?:Record|Array|ReadonlyArray|Partial|Required)</ },
    { label: '`catch (`', pattern: /\bcatch\s*\(/ },
  ],
  python: [
    { label: 'the name Python/CPython/Pyodide', pattern: /\b(?:C?Python|Pyodide)\b/ },
    { label: '`async def`', pattern: /\basync\s+def\b/ },
    { label: 'a `def` statement', pattern: /\bdef\s+[\p{ID_Start}_][\p{ID_Continue}]*\s*\(/u },
    { label: '`TypedDict`/`NotRequired`', pattern: /\b(?:TypedDict|NotRequired)\b/ },
    { label: '`asyncio`', pattern: /\basyncio\b/ },
    { label: 'a Python subscripted type', pattern: /\b(?:Literal|Optional|Union|List|Dict|dict|list|tuple)\[/ },
    { label: '`print(`', pattern: /\bprint\(/ },
    // The value, not the English pronoun: "None of the", "None are returned", "None were found" say no Python.
    {
      label: '`None`',
      pattern: /\bNone\b(?!\s+(?:of|are|were|have|match|matched|exist|existed|remain|whatsoever|at\s+all)\b)/,
    },
    { label: 'a `raise` of an exception', pattern: /\braise\s+[A-Z][A-Za-z]*(?:Error|Exception)\b/ },
    { label: 'an `except` clause', pattern: /\bexcept\s+[A-Z]\w*|\bexcept\s*:/ },
    { label: 'a `from … import`', pattern: /\bfrom\s+[\w.]+\s+import\b/ },
    // A signature's return type (`) -> str:`, `) -> list[Hit]` at a line's end), not an arrow in a sentence
    // ("tools.search(q) -> a list of hits").
    {
      label: 'a return annotation `) ->`',
      pattern:
        /\)\s*->\s*(?:None|Any|str|int|float|bool|bytes|dict|list|tuple|set|[A-Z]\w*)(?:\[[^\]\n]{0,200}\])?\s*(?::|`|$)/m,
    },
    // A `lambda` expression (`lambda x: x.id`, `lambda: 0`), not the word ("an AWS lambda function").
    {
      label: '`elif`/`lambda`',
      pattern: /\belif\b|`lambda`|\blambda(?:\s+[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*){0,20})?\s*:/,
    },
    { label: '`self.`', pattern: /\bself\./ },
  ],
};

/**
 * Markers of each language in SDK code, once comments and string literals are gone: tool names and field
 * names become identifiers there, so only punctuation and statement shapes count, never a bare word.
 */
const CODE_MARKERS: Readonly<Record<Language, readonly Marker[]>> = {
  typescript: [
    // The braces of a functional `TypedDict("Name", {...})` (keys that cannot be fields), with `total=False` after
    // them or not, are Python's own.
    {
      label: 'braces or semicolons',
      pattern: /;|(?<!\bTypedDict\(\s*,\s*)\{|\}(?!\s*(?:,\s*total\s*=\s*(?:True|False)\s*)?,?\s*\))/,
    },
    { label: 'an arrow `=>`', pattern: /=>/ },
    { label: '`Promise<`', pattern: /\bPromise</ },
    {
      label: 'a `declare` statement',
      pattern: /\bdeclare\s+(?:const|let|var|class|function|namespace|module|global|type|enum)\b/,
    },
    { label: 'an `export` statement', pattern: /^\s*export\s/m },
    { label: 'an `interface` declaration', pattern: /\binterface\s+[A-Za-z_$][\w$]*\s*(?:\{|<|extends\b)/ },
  ],
  python: [
    { label: 'a `class X(` statement', pattern: /\bclass\s+[\p{ID_Start}_][\p{ID_Continue}]*\s*\(/u },
    { label: '`async def`', pattern: /\basync\s+def\b/ },
    { label: 'a `def` statement', pattern: /\bdef\s+[\p{ID_Start}_][\p{ID_Continue}]*\s*\(/u },
    { label: 'a return annotation `) ->`', pattern: /\)\s*->/ },
    { label: 'a line ending in `:`', pattern: /:[ \t]*$/m },
    { label: 'a `from … import`', pattern: /\bfrom\s+[\w.]+\s+import\b/ },
    { label: '`NotRequired[`', pattern: /\bNotRequired\[/ },
  ],
};

export const otherLanguage = (language: Language): Language => (language === 'python' ? 'typescript' : 'python');

/** What of `speaker`'s language appears in `text`: each marker found, with the first text it matched. */
function found(markers: readonly Marker[], text: string): string[] {
  return markers.flatMap(({ label, pattern }) => {
    const match = pattern.exec(text);
    return match ? [`${label} (${JSON.stringify(match[0].trim())})`] : [];
  });
}

/** The names of the two languages and their runtimes, as prose says them. */
const NAMES = String.raw`(?:TypeScript|JavaScript|C?Python|Pyodide)\b`;
const IDENTIFIER = String.raw`[\p{ID_Start}_$][\p{ID_Continue}$]{0,100}`;
/**
 * A piece of code as prose names it: in backticks (`` `console.log` ``, `` `async def` ``), a call (`print()`,
 * `console.log(x)`) or a member (`console.log`, `self.name`).
 */
const CODE = String.raw`(?:\x60[^\x60\n]{1,200}\x60|${IDENTIFIER}(?:(?:\.${IDENTIFIER}){1,4}(?:\([^()\n]{0,100}\))?|\([^()\n]{0,100}\)))`;
const MENTION = String.raw`(?:${NAMES}|${CODE})`;
/**
 * Names or code, and a list of them after the first: `, TypeScript`, `or Python`, `/ JavaScript`, `or print()`. A
 * few at most: unbounded, a text listing thousands of names would be read again from each of them (quadratic time).
 */
const MENTIONS = String.raw`${MENTION}(?:\s*(?:,|/|\bor\b|\bnor\b|\band\b)\s*${MENTION}){0,4}`;
/**
 * A language, or a piece of its code, named only to rule it out: "Write Python, not JavaScript", "never TypeScript
 * or JavaScript", "instead of Python", "don't use JavaScript", "there is no need to write any JavaScript",
 * "JavaScript is not supported", "print with print(), not console.log", "don't call `print()`", "null, not None".
 * Backends say so to steer the model, and a text that does speaks its own language.
 */
const RULED_OUT = new RegExp(
  String.raw`\b(?:not|never|no|nor|without|cannot|avoid|(?:don|doesn|can|won)['’]t|instead\s+of|rather\s+than|unlike)\s+` +
    String.raw`(?:(?:a|an|the|in|as|any|plain|write|use|using|writing|with|need|needs|needed|for|to|call|calling)\s+){0,4}` +
    String.raw`${MENTIONS}|(?<![\w$.])${MENTIONS}\s+(?:(?:is|are)\s+(?:not|never)\b|(?:isn|aren)['’]t\b)` +
    // Python's value named to rule it out ("null, not None"), never Python's own test `is not None`. The look back is
    // bounded and made only at a word's start: unbounded, a long run of spaces is read again from each of them.
    String.raw`|\b(?<!\bis\s{1,20})(?:not|never|instead\s+of|rather\s+than)\s+None\b`,
  'giu',
);

/** `text` with every language, and piece of code, it names only to rule out left out: what it says it speaks. */
export const withoutRuledOut = (text: string): string => text.replace(RULED_OUT, ' ');

/** Markers of `speaker` in prose; a mention of its name or code that rules it out is none. */
export const proseMarkersOf = (speaker: Language, text: string): string[] =>
  found(PROSE_MARKERS[speaker], withoutRuledOut(text));

/** Markers of `speaker` in code whose comments and strings were removed. */
export const codeMarkersOf = (speaker: Language, code: string): string[] => found(CODE_MARKERS[speaker], code);
