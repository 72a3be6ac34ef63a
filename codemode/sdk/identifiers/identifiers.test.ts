import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPrivateName, PYTHON_KEYWORDS, pythonNameRules, SUPPORTED_PYTHON_VERSIONS, unicodeTableOf } from './index.js';
import { type CodePointRanges, decodeTable } from './table.js';

describe('floor → Unicode version', () => {
  it('maps every supported CPython to the Unicode version it ships', () => {
    const expected: Record<string, string> = {
      '3.8': '12.1.0',
      '3.9': '13.0.0',
      '3.10': '13.0.0',
      '3.11': '14.0.0',
      '3.12': '15.0.0',
      '3.13': '15.1.0',
      '3.14': '16.0.0',
      '3.15': '17.0.0',
    };
    expect(Object.fromEntries(SUPPORTED_PYTHON_VERSIONS.map((v) => [v, unicodeTableOf(v).version]))).toEqual(expected);
    expect(pythonNameRules().unicodeVersion).toBe('13.0.0');
  });

  it('refuses an unsupported floor, naming the supported ones', () => {
    expect(() => pythonNameRules('3.7')).toThrow(/unsupported Python floor "3\.7".*3\.8, 3\.9/);
  });

  it('committed tables match what the generator writes from the data packages', () => {
    const script = fileURLToPath(new URL('../../../scripts/generate-unicode-tables.mjs', import.meta.url));
    const run = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});

describe('isBareName on the default floor (3.9, Unicode 13.0)', () => {
  const rules = pythonNameRules('3.9');

  it('accepts plain identifiers and soft keywords', () => {
    for (const name of ['x', '_', '__', 'get_weather', 'données', 'match', 'case', 'type', '_x', '__init__']) {
      expect(rules.isBareName(name), name).toBe(true);
    }
  });

  it('refuses hard keywords of every version, __peg_parser__, __debug__ and private names', () => {
    for (const keyword of PYTHON_KEYWORDS) expect(rules.isBareName(keyword), keyword).toBe(false);
    expect(PYTHON_KEYWORDS.has('__peg_parser__')).toBe(true);
    expect(rules.isBareName('__debug__')).toBe(false);
    expect(rules.isBareName('__secret')).toBe(false);
    expect(isPrivateName('__secret_')).toBe(true);
    expect(isPrivateName('__dunder__')).toBe(false);
  });

  it('refuses non-identifiers', () => {
    for (const name of ['', '1x', 'a-b', 'a b', '\u0301x', 'x\ud800', 'é\u0000']) {
      expect(rules.isBareName(name), JSON.stringify(name)).toBe(false);
    }
  });

  it('refuses names NFKC would respell', () => {
    // U+FB01 LATIN SMALL LIGATURE FI, fullwidth letters, a decomposed é, MICRO SIGN.
    for (const name of ['\ufb01le', '\uff41', 'e\u0301', '\u00b5']) {
      expect(rules.isBareName(name), name).toBe(false);
    }
    expect(rules.isBareName('é')).toBe(true);
  });

  it('refuses default-ignorable code points, even identifier ones', () => {
    // U+3164 HANGUL FILLER is XID_Start; U+180B and U+FE00 are XID_Continue variation selectors.
    for (const name of ['\u3164', 'a\u3164', 'a\u180b', 'a\ufe00', 'a\u200d', 'a\u00ad']) {
      expect(rules.isBareName(name), JSON.stringify(name)).toBe(false);
    }
  });

  it('refuses letters newer than Unicode 13.0 that this Node accepts', () => {
    // U+10570 (14.0), U+1E290 (14.0), U+1E4D0 (15.0), U+1C89 (16.0).
    for (const char of ['\u{10570}', '\u{1e290}', '\u{1e4d0}', '\u{1c89}']) {
      expect(/^\p{XID_Start}$/u.test(char)).toBe(true);
      expect(rules.isBareName(char), char).toBe(false);
      expect(rules.isBareName(`x${char}`), char).toBe(false);
    }
    expect(pythonNameRules('3.11').isBareName('\u{10570}')).toBe(true);
    expect(pythonNameRules('3.15').isBareName('\u1c89')).toBe(true);
  });

  it('does not upper-case to a letter the floor does not know', () => {
    // U+019B ƛ and U+0264 ɤ gained capitals in Unicode 16 (U+A7DC, U+A7CB): Node maps them, 3.9 cannot.
    expect('\u019b'.toUpperCase()).toBe('\ua7dc');
    expect(rules.upperFirst('\u019bx')).toBe('\u019bx');
    expect(rules.upperFirst('\u0264x')).toBe('\u0264x');
    expect(pythonNameRules('3.14').upperFirst('\u019bx')).toBe('\ua7dcx');
    expect(rules.upperFirst('ßx')).toBe('SSx');
    expect(rules.upperFirst('éa')).toBe('Éa');
  });
});

describe('a table of code points', () => {
  const table = decodeTable(unicodeTableOf('3.14'));
  const bruteForce = (set: CodePointRanges, start: number, end: number) => {
    let count = 0;
    for (let cp = start; cp < end; cp++) if (set.has(cp)) count++;
    return count;
  };

  it('counts the code points it holds in an interval from its ranges: inside a range, on its bounds, between ranges, past the last', () => {
    const set = table.xidStart;
    const [first, second] = set.ranges();
    const last = set.ranges().at(-1)!;
    const edges: Array<[number, number]> = [
      [0, 0x110000],
      [first![0], first![1]],
      [first![0] + 1, first![1] - 1],
      [first![0] - 1, first![1] + 1],
      [first![1], second![0]],
      [first![1] - 1, second![0] + 1],
      [last[1], 0x110000],
      [last[1] - 1, last[1]],
      [5, 5],
      [9, 3],
    ];
    for (const [start, end] of edges)
      expect(set.countWithin(start, end), `[${start}, ${end})`).toBe(bruteForce(set, start, end));
  });

  it('agrees with a count of each code point on random intervals of every property', () => {
    const sets = [table.xidStart, table.xidContinue, table.assigned, table.defaultIgnorable];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 0x10ffff }),
        fc.integer({ min: 0, max: 70_000 }),
        (which, start, length) => {
          const end = Math.min(start + length, 0x110000);
          expect(sets[which]!.countWithin(start, end)).toBe(bruteForce(sets[which]!, start, end));
        },
      ),
      { numRuns: 200 },
    );
  });
});
