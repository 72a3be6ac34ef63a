import type { Tree } from '@lezer/common';
import { parser } from '@lezer/python';

/**
 * How much of a text that is not valid Python is parsed with error recovery. Recovery costs tens of microseconds for
 * each token that does not fit (a 1 MB class of colons is a million of them, a minute), while a text that parses
 * is read in one linear pass; past this many characters, a broken text is read only this far. CPython's own compile
 * names the syntax error wherever it stands.
 */
export const RECOVERY_LIMIT = 64 * 1024;

const strict = parser.configure({ strict: true });

/** The last texts parsed: the names, floor and declaration readers all read the same SDK in one check. */
const recent = new Map<string, Tree>();
const REMEMBERED = 4;

/**
 * The Python syntax tree of `code`: strict where it parses, else with error recovery over its first RECOVERY_LIMIT
 * characters. A text nested so deeply that building its tree runs out of stack reads as an empty module: there is
 * nothing to read in it, and CPython's compile says why.
 */
export function parsePython(code: string): Tree {
  const known = recent.get(code);
  if (known !== undefined) return known;
  let tree: Tree;
  try {
    tree = parseBounded(code);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    tree = parser.parse('');
  }
  if (recent.size >= REMEMBERED) recent.delete(recent.keys().next().value!);
  recent.set(code, tree);
  return tree;
}

function parseBounded(code: string): Tree {
  try {
    return strict.parse(code);
  } catch (error) {
    if (error instanceof RangeError) throw error;
    return parser.parse(code.length > RECOVERY_LIMIT ? code.slice(0, RECOVERY_LIMIT) : code);
  }
}
