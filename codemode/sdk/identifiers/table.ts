/** One Unicode version's identifier-related properties, as written by scripts/generate-unicode-tables.mjs. */
export interface EncodedUnicodeTable {
  version: string;
  /** Every list alternates gap and length (end-exclusive ranges, delta-encoded from code point 0). */
  xidStart: readonly number[];
  xidContinue: readonly number[];
  /** Code points with a general category other than Cn in this version. */
  assigned: readonly number[];
  defaultIgnorable: readonly number[];
}

/** A set of code points held as sorted end-exclusive range bounds: membership is a binary search. */
export class CodePointRanges {
  readonly #bounds: Uint32Array;

  constructor(encoded: readonly number[]) {
    this.#bounds = new Uint32Array(encoded.length);
    let cursor = 0;
    for (let i = 0; i < encoded.length; i++) {
      cursor += encoded[i]!;
      this.#bounds[i] = cursor;
    }
  }

  has(codePoint: number): boolean {
    // An odd count of bounds ≤ codePoint means codePoint lies inside a range.
    return (this.#boundsAtOrBelow(codePoint) & 1) === 1;
  }

  /** How many code points of the set lie in `[start, end)`, from the ranges alone (no code point is visited). */
  countWithin(start: number, end: number): number {
    if (end <= start) return 0;
    let count = 0;
    let i = this.#boundsAtOrBelow(start);
    if ((i & 1) === 1) {
      // start lies inside the range that ends at bounds[i].
      count += Math.min(this.#bounds[i]!, end) - start;
      i += 1;
    }
    for (; i + 1 < this.#bounds.length && this.#bounds[i]! < end; i += 2)
      count += Math.min(this.#bounds[i + 1]!, end) - this.#bounds[i]!;
    return count;
  }

  /** How many bounds are ≤ codePoint: a binary search. */
  #boundsAtOrBelow(codePoint: number): number {
    let lo = 0;
    let hi = this.#bounds.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#bounds[mid]! <= codePoint) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The set as its ranges, ascending: `[start, end)` each. */
  ranges(): Array<[start: number, end: number]> {
    const out: Array<[number, number]> = [];
    for (let i = 0; i + 1 < this.#bounds.length; i += 2) out.push([this.#bounds[i]!, this.#bounds[i + 1]!]);
    return out;
  }
}

export interface UnicodeTable {
  version: string;
  xidStart: CodePointRanges;
  xidContinue: CodePointRanges;
  assigned: CodePointRanges;
  defaultIgnorable: CodePointRanges;
}

export function decodeTable(encoded: EncodedUnicodeTable): UnicodeTable {
  return {
    version: encoded.version,
    xidStart: new CodePointRanges(encoded.xidStart),
    xidContinue: new CodePointRanges(encoded.xidContinue),
    assigned: new CodePointRanges(encoded.assigned),
    defaultIgnorable: new CodePointRanges(encoded.defaultIgnorable),
  };
}
