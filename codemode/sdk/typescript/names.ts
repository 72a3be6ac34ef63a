import { declaredNames } from '../disambiguate.js';

/** Longest base a tool name contributes to its type names; a suffix keeps truncated names apart. */
export const MAX_BASE_LENGTH = 64;

/**
 * The PascalCase base of a tool's type names: ASCII letters and digits only (accents are stripped after
 * NFKD, other characters split words), so the name is an identifier on any compiler. A base that would
 * start with a digit, or be empty, gets a `Tool` prefix.
 */
export function pascalBase(toolName: string): string {
  const joined = pascalWords(toolName);
  const base = /^[A-Za-z]/.test(joined) ? joined : `Tool${joined}`;
  return base.slice(0, MAX_BASE_LENGTH);
}

/** `text`'s ASCII letters and digits, each word capitalized (accents stripped after NFKD); may be empty. */
export function pascalWords(text: string): string {
  if (/^[A-Za-z0-9]*$/.test(text)) return text === '' ? '' : text[0]!.toUpperCase() + text.slice(1);
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .split(/[^A-Za-z0-9]+/);
  let joined = '';
  for (const word of words) if (word !== '') joined += word[0]!.toUpperCase() + word.slice(1);
  return joined;
}

/**
 * The base of each tool's type names, in the order given. A base only one tool derives is kept; tools
 * whose names derive the same base each get a suffix from their own name (`AB_1c9a3e`), so adding, removing
 * or renaming one tool never renames another unless the two collide.
 */
export function toolBases(toolNames: readonly string[]): string[] {
  return declaredNames(toolNames.map((name) => ({ owner: name, name: pascalBase(name) })));
}
