/** Something only one language says: its words in prose, or its syntax in code. */
export interface Marker {
  label: string;
  pattern: RegExp;
}

/** What marks a language in what a model reads, as data its pack holds. */
export interface LanguageMarkers {
  /** The names of the language and its runtimes, as prose says them (`Python`, `CPython`, `Pyodide`). */
  names: readonly string[];
  /**
   * Markers in model-facing prose (descriptions, the SDK's usage header), where code snippets sit among English
   * sentences: each shaped like code, so ordinary English does not trip it.
   */
  prose: readonly Marker[];
  /** Markers in SDK code whose comments and strings are gone: punctuation and statement shapes, never a bare word. */
  code: readonly Marker[];
  /**
   * Values of the language that prose names to rule them out ("null, not None"), except after the words that make
   * them the language's own test (`row is not None`).
   */
  ruledOutValues?: { values: readonly string[]; unlessAfter: readonly string[] };
}
