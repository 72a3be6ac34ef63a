import type { LanguageMarkers } from '../markers/types.js';
import { wordsPattern } from '../markers/words.js';

/** Words after `None` that make it the English pronoun ("None of the", "None were found"), not the value. */
const PRONOUN_FOLLOWERS = [
  'of',
  'are',
  'were',
  'have',
  'match',
  'matched',
  'exist',
  'existed',
  'remain',
  'whatsoever',
  'at all',
] as const;

/** What marks Python in prose and in SDK code. */
export const PYTHON_MARKERS: LanguageMarkers = {
  names: ['Python', 'CPython', 'Pyodide'],
  prose: [
    { label: '`async def`', pattern: /\basync\s+def\b/ },
    { label: 'a `def` statement', pattern: /\bdef\s+[\p{ID_Start}_][\p{ID_Continue}]*\s*\(/u },
    { label: '`TypedDict`/`NotRequired`', pattern: /\b(?:TypedDict|NotRequired)\b/ },
    { label: '`asyncio`', pattern: /\basyncio\b/ },
    { label: 'a Python subscripted type', pattern: /\b(?:Literal|Optional|Union|List|Dict|dict|list|tuple)\[/ },
    { label: '`print(`', pattern: /\bprint\(/ },
    // The value, not the English pronoun.
    { label: '`None`', pattern: new RegExp(String.raw`\bNone\b(?!\s+${wordsPattern(PRONOUN_FOLLOWERS)}\b)`) },
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
  code: [
    { label: 'a `class X(` statement', pattern: /\bclass\s+[\p{ID_Start}_][\p{ID_Continue}]*\s*\(/u },
    { label: '`async def`', pattern: /\basync\s+def\b/ },
    { label: 'a `def` statement', pattern: /\bdef\s+[\p{ID_Start}_][\p{ID_Continue}]*\s*\(/u },
    { label: 'a return annotation `) ->`', pattern: /\)\s*->/ },
    { label: 'a line ending in `:`', pattern: /:[ \t]*$/m },
    { label: 'a `from … import`', pattern: /\bfrom\s+[\w.]+\s+import\b/ },
    { label: '`NotRequired[`', pattern: /\bNotRequired\[/ },
  ],
  // "null, not None" rules the value out; `row is not None` is Python's own test.
  ruledOutValues: { values: ['None'], unlessAfter: ['is'] },
};
