/**
 * One number per distinct structure: two values get the same number when they are equal as JSON whatever the order
 * of their keys (the keys `ignores` picks aside), each `$ref` read as what it names in its scope (`refKey`). Inside
 * a value, the objects `isNamed` picks (the ones a renderer writes as a type of their own) are numbered too and
 * count by their number, so an object that appears twice (an address in the arguments and in the output, an
 * options object every tool of a server takes) has one number wherever it appears.
 *
 * Linear and cheap: every node is hashed once, bottom up, from its children's hashes (iteratively, at any depth,
 * without building text); values of equal hash are compared node by node before they share a number, so a
 * collision of hashes never merges two structures. A value that contains itself, or that cannot be read (a getter
 * that throws), has no number.
 *
 * With a `horizon`, a walk reads that many levels below the value it starts from and no further: a node past it counts
 * as a structure of its own (equal to no other), so a value that reaches past it is numbered alone, and the nodes
 * past it have no number. A renderer that writes types only so deep then pays for what it writes, not for the depth
 * of the schema.
 */
export class StructureIds {
  readonly #isNamed: (node: Record<string, unknown>) => boolean;
  readonly #ignores: Ignores;
  /** Numbered values met, by hash: each with its scope and number. */
  readonly #byHash = new Map<number, Numbered[]>();
  readonly #stringHashes = new Map<string, number>();
  #count = 0;
  #unique = 0;
  #cut = 0;

  readonly #mayContainItself: boolean;
  /** Levels a walk reads below the value it starts from. */
  readonly #horizon: number;

  constructor(options: StructureOptions) {
    this.#isNamed = options.isNamed;
    this.#mayContainItself = options.mayContainItself ?? false;
    this.#ignores = options.ignores ?? NOTHING_IGNORED;
    this.#horizon = options.horizon ?? Number.POSITIVE_INFINITY;
  }

  /**
   * The number of `node` in `scope`, numbering the named objects inside it on the way (into `scope.seen`);
   * undefined when it contains itself or cannot be read. `met` hears the number of every named object inside it
   * (one with objects inside it) each time the walk reaches one: an object a schema reuses at each place, what it
   * holds once; past the horizon none. A value numbered before is not walked again, and `met` hears nothing.
   */
  of(node: object, scope: NumberingScope, met?: (id: number) => void): number | undefined {
    const known = scope.seen.get(node);
    if (known !== undefined) return known;
    try {
      return this.#walk(node, scope, met);
    } catch {
      return undefined;
    }
  }

  /** `of`, with a number of its own (equal to no other) for a value that has none. */
  ofOrUnique(node: object, scope: NumberingScope, met?: (id: number) => void): number {
    return this.of(node, scope, met) ?? -1 - this.#unique++;
  }

  #walk(node: object, scope: NumberingScope, met: ((id: number) => void) | undefined): number | undefined {
    const { seen } = scope;
    /** Hashes of the unnamed nodes finished, and OPEN for every node whose children are still being hashed. */
    const hashes = new Map<object, number>();
    const nodes: object[] = [node];
    const levels: number[] = [0];
    const expanded: boolean[] = [false];
    // A child is hashed in its turn; past the horizon it has a hash of its own, equal to no other.
    const push = (child: object, level: number): void => {
      if (level <= this.#horizon) {
        nodes.push(child);
        levels.push(level);
        expanded.push(false);
      } else if (!seen.has(child) && !hashes.has(child)) {
        hashes.set(child, CUT + this.#cut++);
      }
    };
    while (nodes.length > 0) {
      const current = nodes.pop()!;
      const level = levels.pop()!;
      if (!expanded.pop()) {
        const known = seen.get(current);
        if (known !== undefined) {
          if (met !== undefined && !Array.isArray(current) && this.#isNamed(current as Record<string, unknown>))
            met(known);
          continue;
        }
        const state = hashes.get(current);
        // An ancestor still open: the value contains itself.
        if (state === OPEN) return undefined;
        if (state !== undefined) continue;
        const children = nodes.length;
        nodes.push(current);
        levels.push(level);
        expanded.push(true);
        // Leaves (objects with no object inside: `{ type: "string" }`, a `required` list) are hashed where their
        // parent is; only nodes with objects inside wait on the stack.
        const below = level + 1;
        if (Array.isArray(current)) {
          for (const child of current)
            if (typeof child === 'object' && child !== null && !isLeaf(child)) push(child, below);
        } else {
          for (const key in current) {
            const child = (current as Record<string, unknown>)[key];
            if (typeof child === 'object' && child !== null && !isLeaf(child)) push(child, below);
          }
        }
        if (nodes.length > children + 1) {
          if (this.#mayContainItself) hashes.set(current, OPEN);
          continue;
        }
        nodes.pop();
        levels.pop();
        expanded.pop();
      }
      const hash = this.#hash(current, scope, hashes);
      if (current !== node && (Array.isArray(current) || !this.#isNamed(current as Record<string, unknown>))) {
        hashes.set(current, hash);
        continue;
      }
      const id = this.#number(current, hash, scope);
      seen.set(current, id);
      if (current !== node) met?.(id);
    }
    return seen.get(node);
  }

  /**
   * A 53-bit hash of a node whose children are hashed or numbered: two 32-bit lanes, each summing one mix per key
   * (so key order does not count) or chaining one per item (so item order does).
   */
  #hash(node: object, scope: NumberingScope, hashes: Map<object, number>): number {
    let low = 0;
    let high = 0;
    if (Array.isArray(node)) {
      low = 0x9e3779b1;
      high = 0x7f4a7c15;
      for (const item of node) {
        const value = this.#valueHash('', item, scope, hashes);
        low = mix(low, value);
        high = mix(high ^ 0x5bd1e995, value / 0x100000000);
      }
    } else {
      for (const key in node) {
        if (this.#ignores(node as Record<string, unknown>, key)) continue;
        const keyHash = this.#stringHash(key);
        const value = this.#valueHash(key, (node as Record<string, unknown>)[key], scope, hashes);
        low = (low + mix(keyHash, value)) >>> 0;
        high = (high + mix(keyHash ^ 0x27d4eb2f, value / 0x100000000)) >>> 0;
      }
      low = mix(low, 0x85ebca6b);
    }
    return (high & 0x1fffff) * 0x100000000 + low;
  }

  #valueHash(key: string, value: unknown, scope: NumberingScope, hashes: Map<object, number>): number {
    if (typeof value === 'object' && value !== null) {
      const id = scope.seen.get(value);
      if (id !== undefined) return 0x10000000000 + id * 7919;
      return hashes.get(value) ?? this.#leafHash(value, scope, hashes);
    }
    if (typeof value === 'string')
      return key === '$ref' ? this.#stringHash(`$ref ${scope.refKey(value)}`) : this.#stringHash(value);
    return this.#stringHash(`\u0000${typeof value}${String(value)}`);
  }

  /** A leaf's hash, or its number when it is named (an object with fields and no object inside cannot be). */
  #leafHash(leaf: object, scope: NumberingScope, hashes: Map<object, number>): number {
    const hash = this.#hash(leaf, scope, hashes);
    if (Array.isArray(leaf) || !this.#isNamed(leaf as Record<string, unknown>)) return hash;
    const id = this.#number(leaf, hash, scope);
    scope.seen.set(leaf, id);
    return 0x10000000000 + id * 7919;
  }

  /** The hash of a text (see `hashText`). */
  #stringHash(text: string): number {
    // A short text (a key, a type name) is hashed faster than it is looked up; a long one (a description) is
    // hashed once.
    if (text.length <= SHORT_TEXT) return hashText(text);
    let hash = this.#stringHashes.get(text);
    if (hash === undefined) this.#stringHashes.set(text, (hash = hashText(text)));
    return hash;
  }

  /** The number of a value: the one of an equal structure met before, else a new one. */
  #number(node: object, hash: number, scope: NumberingScope): number {
    let candidates = this.#byHash.get(hash);
    if (candidates === undefined) this.#byHash.set(hash, (candidates = []));
    for (const candidate of candidates)
      if (equal(node, scope, candidate.node, candidate.scope, this.#isNamed, this.#ignores)) return candidate.id;
    const id = this.#count++;
    candidates.push({ node, scope, id });
    return id;
  }
}

/** Longest text hashed again at each use rather than remembered. */
const SHORT_TEXT = 24;

/** Two lanes over the UTF-16 code units (FNV-1a and a multiplicative one), as one 53-bit number. */
function hashText(text: string): number {
  let low = 0x811c9dc5;
  let high = 5381;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    low = Math.imul(low ^ unit, 0x01000193) >>> 0;
    high = (Math.imul(high, 33) + unit) >>> 0;
  }
  return (high & 0x1fffff) * 0x100000000 + low;
}

/** Whether a value holds no object. */
function isLeaf(value: object): boolean {
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === 'object' && item !== null) return false;
    return true;
  }
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null) return false;
  }
  return true;
}

/** Whether a key of an object does not count in its structure (a renderer writes the object alike without it). */
export type Ignores = (node: Record<string, unknown>, key: string) => boolean;

const NOTHING_IGNORED: Ignores = () => false;

export interface StructureOptions {
  /** Whether an object inside a value is numbered on its own (one a renderer writes as a class, an alias). */
  isNamed(node: Record<string, unknown>): boolean;
  /**
   * The values are not known to be trees (a tool's raw schema may be any object graph), so each is checked for
   * containing itself; a lowered schema cannot, its references being text.
   */
  mayContainItself?: boolean;
  ignores?: Ignores;
  /** Levels a walk reads below the value it starts from (unbounded when absent). */
  horizon?: number;
}

/** Marks a node whose children are still being hashed. */
const OPEN = -1;

/** The first hash of the nodes past the horizon (one each, apart from the hashes of numbered nodes). */
const CUT = 0x20000000000;

/** How the values of one scope are numbered: its references read as what they name, and what it numbered. */
export interface NumberingScope {
  refKey(ref: string): string;
  seen: Map<object, number>;
}

interface Numbered {
  node: object;
  scope: NumberingScope;
  id: number;
}

/** Mixes a value (any number: its low 32 bits count) into a 32-bit hash: order-sensitive, well spread. */
function mix(hash: number, value: number): number {
  let h = Math.imul(hash ^ (value >>> 0), 0xcc9e2d51);
  h = (h << 15) | (h >>> 17);
  h = Math.imul(h, 0x1b873593) ^ (h >>> 13);
  return h >>> 0;
}

/**
 * Whether two values are one structure: the same keys, equal values, references naming the same thing, and the
 * named objects inside them of equal numbers. Iterative.
 */
function equal(
  a: object,
  scopeA: NumberingScope,
  b: object,
  scopeB: NumberingScope,
  isNamed: (node: Record<string, unknown>) => boolean,
  ignores: Ignores,
): boolean {
  const left: unknown[] = [a];
  const right: unknown[] = [b];
  while (left.length > 0) {
    const x = left.pop();
    const y = right.pop();
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) {
      if (x !== y) return false;
      continue;
    }
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) {
        left.push(x[i]);
        right.push(y[i]);
      }
      continue;
    }
    if (Array.isArray(y)) return false;
    if (x !== a && isNamed(x as Record<string, unknown>)) {
      const idX = scopeA.seen.get(x);
      const idY = scopeB.seen.get(y);
      // Named objects past a horizon have no number, and are compared as they are.
      if (idX !== undefined || idY !== undefined) {
        if (idX !== idY) return false;
        continue;
      }
    }
    const rx = x as Record<string, unknown>;
    const ry = y as Record<string, unknown>;
    let count = 0;
    for (const key in rx) {
      if (ignores(rx, key)) continue;
      count++;
      if (!Object.hasOwn(ry, key)) return false;
      const vx = rx[key];
      const vy = ry[key];
      if (key === '$ref' && typeof vx === 'string' && typeof vy === 'string') {
        if (scopeA.refKey(vx) !== scopeB.refKey(vy)) return false;
      } else {
        left.push(vx);
        right.push(vy);
      }
    }
    for (const key in ry) if (!ignores(ry, key)) count--;
    if (count !== 0) return false;
  }
  return true;
}
