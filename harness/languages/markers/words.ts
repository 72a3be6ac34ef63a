// The words the language markers are built from. A sentence that reads wrong is a word added here (and the sentence
// added to sentences.yaml), not an edit to an expression.

/** Words that rule out what follows them: "not JavaScript", "instead of print()". */
export const NEGATIONS = [
  'not',
  'never',
  'no',
  'nor',
  'without',
  'cannot',
  'avoid',
  "don't",
  "doesn't",
  "can't",
  "won't",
  'instead of',
  'rather than',
  'unlike',
] as const;

/** The negations that rule out a value of the language ("null, not None"). */
export const VALUE_NEGATIONS = ['not', 'never', 'instead of', 'rather than'] as const;

/**
 * Words that may stand between a negation and what it rules out ("do not write any TypeScript", "no need for
 * JavaScript"), up to {@link FILLER_REACH} of them.
 */
export const FILLERS = [
  'a',
  'an',
  'the',
  'in',
  'as',
  'any',
  'plain',
  'write',
  'use',
  'using',
  'writing',
  'with',
  'need',
  'needs',
  'needed',
  'for',
  'to',
  'call',
  'calling',
] as const;

/** How many filler words a negation reaches over. */
export const FILLER_REACH = 4;

/** What joins the names or code of a list: "JavaScript, TypeScript", "print() or console.log". */
export const LIST_JOINERS = [',', '/', 'or', 'nor', 'and'] as const;

/** How many names a list after the first may hold: unbounded, a text of thousands of names is read again from each. */
export const LIST_REACH = 4;

/** Words after a name that rule it out: "JavaScript is not supported", "`console.log` isn't captured". */
export const DENIALS = ['is not', 'is never', 'are not', 'are never', "isn't", "aren't"] as const;

/** How far back a value's rule-out looks for the words that make it the language's own test (`is   not None`). */
export const LOOK_BACK_SPACES = 20;

/** One word as a pattern: a space stands for any run of whitespace, an apostrophe for either apostrophe. */
const wordPattern = (word: string): string =>
  word
    .replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
    .replace(/ /g, String.raw`\s+`)
    .replace(/'/g, "['’]");

/** An alternation of `words` as a pattern (see `wordPattern`). */
export const wordsPattern = (words: readonly string[]): string => `(?:${words.map(wordPattern).join('|')})`;

/** An alternation of joiners: a word among them is matched whole (`or`, not the `or` of `order`). */
export const joinersPattern = (joiners: readonly string[]): string =>
  `(?:${joiners.map((joiner) => (/^\w/.test(joiner) ? `\\b${wordPattern(joiner)}\\b` : wordPattern(joiner))).join('|')})`;
