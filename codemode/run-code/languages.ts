import type { Language } from '../../runtimes/seam/types.js';

/** A table with one entry per language a code runtime may speak. */
export type LanguageTable<T> = Readonly<Record<Language, T>>;

/**
 * The entry of `table` for `language`. Own properties only: a language named `toString` or
 * `__proto__` must not resolve to something inherited from `Object.prototype`.
 */
export function languageEntry<T>(table: LanguageTable<T>, language: string, what: string): T {
  if (Object.hasOwn(table, language)) return table[language as Language];
  const known = Object.keys(table).sort().join(', ');
  throw new Error(`${what}: no entry for language ${JSON.stringify(language)} (known languages: ${known})`);
}
