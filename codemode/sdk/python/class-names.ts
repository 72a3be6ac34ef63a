import { declaredNames, type WantedName } from '../disambiguate.js';
import type { PythonNameRules } from '../identifiers/index.js';

/**
 * Longest class name kept before a collision counter (in code points). Each nested class name is its
 * parent's plus a field's, so without a cap a deep single-field chain would grow the text quadratically.
 */
export const MAX_CLASS_NAME = 64;

/** Names the SDK itself defines or uses; a derived class name never shadows one. */
const RESERVED = [
  'Any',
  'Dict',
  'List',
  'Literal',
  'NotRequired',
  'Optional',
  'Required',
  'Tuple',
  'TypedDict',
  'Union',
  'Tools',
  'ToolCallError',
  'tools',
  'str',
  'int',
  'float',
  'bool',
  'list',
  'dict',
  'None',
  'Exception',
];

const UNDERSCORE = 0x5f;

/** Stands for a class name in written text until every owner's names are known; escaping keeps NUL out of the rest. */
const TOKEN = /\u0000(\d+)\u0000/g;

/** A class name as its owner wants it (`name`, which derived names build on) and the token the text holds. */
export interface ClassName {
  name: string;
  token: string;
}

/**
 * Class names for one SDK. Each owner (a tool, a shared `$defs` definition) names its classes in its own
 * namespace, from its own tool and field names alone; text holds tokens until `declare` settles the names
 * two owners (or an owner and a method of `Tools`) both want, with a suffix derived from each owner.
 */
export class ClassNames {
  readonly rules: PythonNameRules;
  readonly #wanted: WantedName[] = [];
  readonly #methods = new Set<string>();

  constructor(rules: PythonNameRules) {
    this.rules = rules;
  }

  /** A bare method name of `Tools`: a class so named would be shadowed by it in later annotations. */
  reserveMethod(name: string): void {
    this.#methods.add(name);
  }

  /** A fresh namespace for `owner` (text that names it whatever the tools around it). */
  namer(owner: string): ClassNamer {
    return new ClassNamer(this, owner);
  }

  /** @internal a token for `name` in `owner`'s namespace. */
  token(owner: string, name: string): string {
    this.#wanted.push({ owner, name });
    return `\u0000${this.#wanted.length - 1}\u0000`;
  }

  /** `text` with every token replaced by its declared name. */
  declare(text: string): string {
    const names = declaredNames(this.#wanted, this.#methods);
    return text.replace(TOKEN, (_, index: string) => names[Number(index)]!);
  }

  /** `text` in PascalCase: runs of name characters (underscore splits too), each upper-cased where safe. */
  pascalCase(text: string): string {
    const words: string[] = [];
    let word: string[] = [];
    for (const char of text) {
      const codePoint = char.codePointAt(0)!;
      if (codePoint !== UNDERSCORE && this.rules.isNameContinue(codePoint)) {
        word.push(char);
      } else if (word.length > 0) {
        words.push(this.rules.upperFirst(word.join('')));
        word = [];
      }
    }
    if (word.length > 0) words.push(this.rules.upperFirst(word.join('')));
    return words.join('').normalize('NFKC');
  }

  /**
   * The name a tool's classes derive from: the tool name in PascalCase, prefixed with `Tool` when it cannot
   * start a name (a digit, a combining mark, nothing at all). The prefix may compose with what follows.
   */
  toolBase(toolName: string): string {
    const base = this.pascalCase(toolName);
    const first = base.codePointAt(0);
    return first === undefined || !this.rules.isNameStart(first) ? `Tool${base}`.normalize('NFKC') : base;
  }
}

/** Hands out the class names of one owner: unique within it, valid on the floor CPython. */
export class ClassNamer {
  readonly #names: ClassNames;
  readonly #rules: PythonNameRules;
  readonly #owner: string;
  readonly #used = new Set<string>(RESERVED);
  readonly #nextCounter = new Map<string, number>();

  constructor(names: ClassNames, owner: string) {
    this.#names = names;
    this.#rules = names.rules;
    this.#owner = owner;
  }

  /**
   * A class name for `joined` (an allocated parent name plus a segment, or a tool base plus a suffix):
   * normalized after the join, capped, and given a counter when this owner already took it.
   */
  allocate(joined: string): ClassName {
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
    return { name, token: this.#names.token(this.#owner, name) };
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
