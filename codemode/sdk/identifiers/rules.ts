import type { PythonVersion } from '../../tools/types.js';
import { decodeTable, type UnicodeTable } from './table.js';
import { DEFAULT_PYTHON_FLOOR, NEWEST_UNICODE_TABLE, PYTHON_KEYWORDS, unicodeTableOf } from './versions.js';

const UNDERSCORE = 0x5f;

/** ASCII letters, digits and `_`: every CPython reads these alike, NFKC leaves them alone, no table is asked. */
const ASCII_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ASCII_TAIL = /^[A-Za-z0-9_]*$/;

/**
 * Which names a Python program may write bare, decided with the Unicode tables of the floor CPython rather
 * than this Node's: an interpreter older than Node rejects letters added since its own Unicode version.
 * Identifier stability guarantees a name valid on the floor stays valid on every later CPython, and every
 * code point it holds is assigned on the floor, so Node's NFKC agrees with the floor's for it.
 */
export class PythonNameRules {
  readonly floor: PythonVersion;
  readonly unicodeVersion: string;
  readonly #table: UnicodeTable;
  readonly #newest: UnicodeTable;

  constructor(floor: PythonVersion = DEFAULT_PYTHON_FLOOR) {
    this.floor = floor;
    this.#table = decodeTable(unicodeTableOf(floor));
    this.#newest = decodeTable(NEWEST_UNICODE_TABLE);
    this.unicodeVersion = this.#table.version;
  }

  /** A code point that may begin a name on the floor (invisible ones excluded). */
  isNameStart(codePoint: number): boolean {
    return (codePoint === UNDERSCORE || this.#table.xidStart.has(codePoint)) && this.#isVisible(codePoint);
  }

  /** A code point that may continue a name on the floor (invisible ones excluded). */
  isNameContinue(codePoint: number): boolean {
    return this.#table.xidContinue.has(codePoint) && this.#isVisible(codePoint);
  }

  isAssigned(codePoint: number): boolean {
    return this.#table.assigned.has(codePoint);
  }

  /** Whether `text` is a run of name-continue code points that NFKC leaves alone. */
  isNameTail(text: string): boolean {
    if (ASCII_TAIL.test(text)) return true;
    for (const char of text) {
      if (!this.isNameContinue(char.codePointAt(0)!)) return false;
    }
    return text.normalize('NFKC') === text;
  }

  /**
   * A name usable bare (attribute, class-body field, class name) on every CPython from the floor up: a
   * valid identifier on the floor, unchanged by NFKC (the compiler would store the normalized spelling),
   * no keyword of any supported version, not `__debug__`, and not a private `__x` (mangled in class bodies).
   */
  isBareName(name: string): boolean {
    if (ASCII_NAME.test(name)) return !PYTHON_KEYWORDS.has(name) && name !== '__debug__' && !isPrivateName(name);
    const first = name.codePointAt(0);
    if (first === undefined || !this.isNameStart(first)) return false;
    if (!this.isNameTail(name.slice(first > 0xffff ? 2 : 1))) return false;
    if (name.normalize('NFKC') !== name) return false;
    if (PYTHON_KEYWORDS.has(name) || name === '__debug__') return false;
    return !isPrivateName(name);
  }

  /**
   * `text` with its first code point upper-cased, but only where the result is still a name tail on the floor:
   * Node's case tables are newer and may map a letter to one the floor does not know.
   */
  upperFirst(text: string): string {
    const first = text.codePointAt(0);
    if (first === undefined) return text;
    const head = String.fromCodePoint(first);
    const upper = head.toUpperCase();
    if (upper === head || !this.isNameTail(upper)) return text;
    return upper + text.slice(head.length);
  }

  #isVisible(codePoint: number): boolean {
    return !this.#table.defaultIgnorable.has(codePoint) && !this.#newest.defaultIgnorable.has(codePoint);
  }
}

/** `__x` but not `__x__`: CPython rewrites such names inside a class body to `_Class__x`. */
export function isPrivateName(name: string): boolean {
  return name.startsWith('__') && !name.endsWith('__');
}

/** `__x__`: names the object protocol owns (`__init__`, `__class__`…), never a safe member of our own. */
export function isDunderName(name: string): boolean {
  return name.length > 4 && name.startsWith('__') && name.endsWith('__');
}

const rulesByFloor = new Map<string, PythonNameRules>();

/** Shared, lazily built rules per floor (decoding a table costs a few hundred microseconds). */
export function pythonNameRules(floor: PythonVersion = DEFAULT_PYTHON_FLOOR): PythonNameRules {
  let rules = rulesByFloor.get(floor);
  if (rules === undefined) {
    rules = new PythonNameRules(floor);
    rulesByFloor.set(floor, rules);
  }
  return rules;
}
