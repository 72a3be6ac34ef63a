import type { Language } from '../../runtimes/seam/types.js';
import type { LanguagePack } from './pack.js';
import { PYTHON_PACK } from './python/pack.js';
import { TYPESCRIPT_PACK } from './typescript/pack.js';

/** The pack of every language a runtime can speak: the compiler flags a language without one. */
export const LANGUAGE_PACKS: { readonly [L in Language]: LanguagePack & { language: L } } = {
  typescript: TYPESCRIPT_PACK as LanguagePack & { language: 'typescript' },
  python: PYTHON_PACK as LanguagePack & { language: 'python' },
};

/** Every language concord knows, in the order reports list them. */
export const LANGUAGES = Object.keys(LANGUAGE_PACKS) as Language[];

/** The packs of every language but `language`: the ones whose markers must not appear in what it is shown. */
export const otherPacks = (language: Language): LanguagePack[] =>
  LANGUAGES.filter((other) => other !== language).map((other) => LANGUAGE_PACKS[other]);

/** Whether judging SDKs of `language` needs the session's interpreters (a gate starts them early when it does). */
export const usesInterpreters = (language: Language): boolean => LANGUAGE_PACKS[language].stubs !== undefined;
