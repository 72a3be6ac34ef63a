import { declaredNames, type WantedName } from '../disambiguate.js';
import type { PythonNameRules } from '../identifiers/index.js';

/**
 * Longest class name kept before a collision counter (in code points). Each nested class name is its
 * parent's plus a field's, so without a cap a deep single-field chain would grow the text quadratically.
 */
export const MAX_CLASS_NAME = 64;

/** Names the SDK itself defines or uses; a derived class name never shadows one. */
const RESERVED: ReadonlySet<string> = new Set([
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
]);

const UNDERSCORE = 0x5f;

/** ASCII text is its own NFKC form and one code point per code unit. */
const ASCII = /^[\x00-\x7f]*$/;

/** Stands for a class name in written text until every owner's names are known; escaping keeps NUL out of the rest. */
const TOKEN = /\u0000(\d+)\u0000/g;

/**
 * The two names a nested class may take: `short`, the owner's base and the path's last field (`OrderAddress`), and
 * `long`, its parent class's name and the field (`OrderArgsBillingAddress`), for when the short one is taken.
 */
export interface ClassHint {
  short: string;
  long: string;
}

/** A hint whose two forms are one name (a root's, a definition's). */
export function exactHint(name: string): ClassHint {
  return { short: name, long: name };
}

/** `hint` one step further down (`Item` for a list's items, `Value` for a map's values). */
export function hintSuffix(hint: ClassHint, suffix: string): ClassHint {
  return { short: hint.short + suffix, long: hint.long + suffix };
}

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

  readonly #pascal = new Map<string, string>();

  /** `text` in PascalCase: runs of name characters (underscore splits too), each upper-cased where safe. */
  pascalCase(text: string): string {
    // Field and tool names repeat across an SDK: each is cased once.
    let cased = this.#pascal.get(text);
    if (cased === undefined) this.#pascal.set(text, (cased = this.#pascalCase(text)));
    return cased;
  }

  #pascalCase(text: string): string {
    if (ASCII.test(text)) {
      let out = '';
      for (const word of text.split(/[^A-Za-z0-9]+/)) if (word !== '') out += word[0]!.toUpperCase() + word.slice(1);
      return out;
    }
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
  /** Names this owner took (the SDK's own, RESERVED, are taken for every owner). */
  readonly #used = new Set<string>();
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
    return this.#take(this.#normalize(joined));
  }

  /**
   * A class name for a nested object: its short form (the owner's base and the field's name) when this owner has
   * not taken it, else its path form (the parent class's name and the field's) when that fits the cap and is
   * free, else the short form with a counter.
   */
  allocateNested(hint: ClassHint): ClassName {
    const short = this.#normalize(hint.short);
    if (this.#isTaken(short) && hint.long !== hint.short) {
      const long = this.#normalize(hint.long, false);
      if (long !== undefined && !this.#isTaken(long)) return this.#take(long);
    }
    return this.#take(short);
  }

  /**
   * A join can compose across its seam (Hangul jamo, a combining mark after the last letter): the whole name is
   * normalized, then capped, so two spellings that compile to one symbol also collide here.
   */
  #normalize(joined: string): string;
  /** Without `cap`: undefined for a name longer than the cap. */
  #normalize(joined: string, cap: false): string | undefined;
  #normalize(joined: string, cap = true): string | undefined {
    const whole = ASCII.test(joined) ? joined : joined.normalize('NFKC');
    const name = ASCII.test(joined)
      ? whole.slice(0, MAX_CLASS_NAME)
      : capCodePoints(whole, MAX_CLASS_NAME).normalize('NFKC');
    if (!cap && name !== whole) return undefined;
    return this.#rules.isBareName(name) ? name : 'ToolType';
  }

  #isTaken(name: string): boolean {
    return RESERVED.has(name) || this.#used.has(name);
  }

  /** `name`, with a counter when this owner took it already. */
  #take(name: string): ClassName {
    if (this.#isTaken(name)) {
      // Digits never compose backwards, so the counter needs no further normalization.
      let counter = this.#nextCounter.get(name) ?? 2;
      while (this.#isTaken(`${name}${counter}`)) counter++;
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
