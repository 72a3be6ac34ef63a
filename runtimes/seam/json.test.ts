import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonValueError, nestsDeeperThan, parseJsonValue, rebuildJsonValue, toJsonText } from './json.js';

function problemAt(value: unknown): { path: string; problem: string } {
  try {
    rebuildJsonValue(value);
  } catch (error) {
    if (error instanceof JsonValueError) return { path: error.path, problem: error.problem };
    throw error;
  }
  throw new Error('expected a JsonValueError');
}

describe('rebuildJsonValue', () => {
  it('copies lossless values exactly and builds fresh containers', () => {
    const value = { a: [1, 'two', null, true, { b: -1.5 }], c: {} };
    const copy = rebuildJsonValue(value);
    expect(copy).toEqual(value);
    expect(copy).not.toBe(value);
    expect((copy as { a: unknown[] }).a).not.toBe(value.a);
  });

  it.each([
    ['NaN', { a: [1, Number.NaN] }, '$.a[1]', /NaN is not a finite number/],
    ['Infinity', [Number.POSITIVE_INFINITY], '$[0]', /not a finite number/],
    ['-0', { zero: -0 }, '$.zero', /-0/],
    ['undefined', { u: undefined }, '$.u', /undefined is not JSON/],
    ['a function', [() => 1], '$[0]', /a function is not JSON/],
    ['a bigint', { n: 1n }, '$.n', /a bigint is not JSON/],
    ['a Map', { m: new Map() }, '$.m', /a Map object is not a plain object/],
    ['a Date', { 'a-b': new Date(0) }, '$["a-b"]', /a Date object/],
    ['a class instance', { x: new (class Point {})() }, '$.x', /a Point object/],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case under test
    ['a sparse array', { s: [1, , 3] }, '$.s[1]', /hole in a sparse array/],
    [
      'a hidden key',
      { g: Object.defineProperty({}, 'k', { value: 1, enumerable: false }) },
      '$.g',
      /"k" is not enumerable/,
    ],
    ['a symbol key', { s: { [Symbol('x')]: 1 } }, '$.s', /symbol key/],
  ])('refuses %s and names its path', (_what, value, path, problem) => {
    const found = problemAt(value);
    expect(found.path).toBe(path);
    expect(found.problem).toMatch(problem);
  });

  it('refuses cycles but accepts a shared sub-value', () => {
    const shared = { s: 1 };
    expect(rebuildJsonValue({ a: shared, b: [shared] })).toEqual({ a: { s: 1 }, b: [{ s: 1 }] });
    const cyclic: Record<string, unknown> = { list: [] };
    (cyclic['list'] as unknown[]).push(cyclic);
    expect(problemAt(cyclic)).toEqual({ path: '$.list[0]', problem: expect.stringMatching(/cycle/) });
  });

  it('keeps __proto__ as an ordinary own key and never sets a prototype from data', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as object;
    const copy = rebuildJsonValue(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'x']);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('accepts null-prototype objects and rebuilds them as plain objects', () => {
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    const copy = rebuildJsonValue(bare);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toEqual({ a: 1 });
  });

  it('walks values nested far deeper than the call stack allows', () => {
    let deep: unknown[] = [];
    const root = deep;
    for (let i = 0; i < 200_000; i++) {
      const next: unknown[] = [];
      deep.push(next);
      deep = next;
    }
    const text = toJsonText(root);
    expect(text.length).toBe(400_002);
    expect(parseJsonValue(text)).toBeDefined();
  });
});

describe('toJsonText and parseJsonValue', () => {
  it('round-trip every lossless value and agree with JSON.stringify', () => {
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        finite,
        fc.string({ unit: 'grapheme' }),
        fc.array(tie('value')),
        fc.dictionary(fc.string(), tie('value')),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const text = toJsonText(value);
        expect(text).toBe(JSON.stringify(value));
        expect(parseJsonValue(text)).toEqual(value);
      }),
    );
  });

  it('serializes deep values (past the native fast path) exactly as JSON.stringify does', () => {
    let value: unknown = 'leaf "quoted" \u2028 \n';
    for (let i = 0; i < 1_500; i++)
      value = i % 2 === 0 ? [i, value, null] : { 'k"ey': value, ['__proto__']: { n: -i } };
    expect(toJsonText(value)).toBe(JSON.stringify(value));
  });

  it('names the value in errors and reports bad JSON text and -0 in text', () => {
    expect(() => toJsonText({ n: Number.NaN }, 'the returned value')).toThrow(
      'the returned value: $.n: NaN is not a finite number',
    );
    expect(() => parseJsonValue('{"a": ', 'frame')).toThrow(/^frame: \$: not valid JSON text/);
    expect(() => parseJsonValue('[-0.0]')).toThrow(/\$\[0\]: -0/);
  });
});

describe('nestsDeeperThan', () => {
  const nested = (depth: number): unknown => {
    let value: unknown = 'leaf';
    for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
    return value;
  };

  it('counts containers, a scalar being 0 deep, at the edges of the limit', () => {
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan(nested(99), 100)).toBe(false);
    expect(nestsDeeperThan(nested(100), 100)).toBe(false);
    expect(nestsDeeperThan(nested(101), 100)).toBe(true);
    expect(nestsDeeperThan(nested(200_000), 100)).toBe(true);
  });

  it('stops at a cycle, and reads a value that shares its parts once per part', () => {
    const self: Record<string, unknown> = {};
    self.self = self;
    expect(nestsDeeperThan(self, 5)).toBe(false);
    // 60 levels, each holding the next twice: 2^60 paths, 60 containers.
    let shared: unknown = 'leaf';
    for (let i = 0; i < 60; i++) shared = [shared, shared];
    expect(nestsDeeperThan(shared, 60)).toBe(false);
    expect(nestsDeeperThan(shared, 59)).toBe(true);
  });
});
