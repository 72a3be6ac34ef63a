import type { LanguageMarkers } from '../markers/types.js';

/** What marks TypeScript (and JavaScript, which a TypeScript runtime runs too) in prose and in SDK code. */
export const TYPESCRIPT_MARKERS: LanguageMarkers = {
  names: ['TypeScript', 'JavaScript'],
  prose: [
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
  code: [
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
};
