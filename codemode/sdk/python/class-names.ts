import type { PythonNameRules } from '../identifiers/index.js';

/**
 * Longest class name kept before a collision counter (in code points). Each nested class name is its
 * parent's plus a field's, so without a cap a deep single-field chain would grow the text quadratically.
 */
export const MAX_CLASS_NAME = 64;

/** Names the SDK itself defines or uses; a derived class name never shadows one. */
const RESERVED = [
  'Any', 'Dict', 'List', 'Literal', 'NotRequired', 'Optional', 'Required', 'Tuple', 'TypedDict', 'Union',
  'Tools', 'ToolCallError', 'tools',
  'str', 'int', 'float', 'bool', 'list', 'dict', 'None', 'Exception',
];

const UNDERSCORE = 0x5f;

/** Hands out unique class names derived from tool and field names, valid on the floor CPython. */
export class ClassNamer {
  readonly #rules: PythonNameRules;
  readonly #used = new Set<string>(RESERVED);
  readonly #nextCounter = new Map<string, number>();

  constructor(rules: PythonNameRules) {
    this.#rules = rules;
  }

  /** Keeps `name` (a bare method name of `Tools`) from becoming a class name. */
  reserve(name: string): void {
    this.#used.add(name);
  }

  /** `text` in PascalCase: runs of name characters (underscore splits too), each upper-cased where safe. */
  pascalCase(text: string): string {
    const words: string[] = [];
    let word: string[] = [];
    for (const char of text) {
      const codePoint = char.codePointAt(0)!;
      if (codePoint !== UNDERSCORE && this.#rules.isNameContinue(codePoint)) {
        word.push(char);
      } else if (word.length > 0) {
        words.push(this.#rules.upperFirst(word.join('')));
        word = [];
      }
    }
    if (word.length > 0) words.push(this.#rules.upperFirst(word.join('')));
    return words.join('').normalize('NFKC');
  }

  /**
   * The name a tool's classes derive from: the tool name in PascalCase, prefixed with `Tool` when it cannot
   * start a name (a digit, a combining mark, nothing at all). The prefix may compose with what follows.
   */
  toolBase(toolName: string): string {
    const base = this.pascalCase(toolName);
    const first = base.codePointAt(0);
    return first === undefined || !this.#rules.isNameStart(first) ? `Tool${base}`.normalize('NFKC') : base;
  }

  /**
   * A unique class name for `joined` (an allocated parent name plus a segment, or a tool base plus a
   * suffix): normalized after the join, capped, and given a counter when taken.
   */
  allocate(joined: string): string {
    // A join can compose across its seam (Hangul jamo, a combining mark after the last letter): normalize
    // the whole name, then cap it, so two spellings that compile to one symbol also collide here.
    let name = capCodePoints(joined.normalize('NFKC'), MAX_CLASS_NAME).normalize('NFKC');
    if (!this.#rules.isBareName(name)) name = 'ToolType';
    if (this.#used.has(name)) {
      // Digits never compose backwards, so the counter needs no further normalization.
      let counter = this.#nextCounter.get(name) ?? 2;
      while (this.#used.has(`${name}${counter}`)) counter++;
      this.#nextCounter.set(name, counter + 1);
      name = `${name}${counter}`;
    }
    this.#used.add(name);
    return name;
  }
}

function capCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  let count = 0;
  while (end < text.length && count < max) {
    end += text.codePointAt(end)! > 0xffff ? 2 : 1;
    count++;
  }
  return text.slice(0, end);
}
