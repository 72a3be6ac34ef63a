/**
 * Hard keywords of every supported CPython (3.8–3.15): never a name. `__peg_parser__` is a keyword on 3.9 only.
 */
export const PYTHON_HARD_KEYWORDS: readonly string[] = [
  'False',
  'None',
  'True',
  '__peg_parser__',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
];

/** Soft keywords: names everywhere but where the grammar reads them as keywords (`match`, `case`, `type`, `_`). */
export const PYTHON_SOFT_KEYWORDS: readonly string[] = ['_', 'case', 'match', 'type'];
