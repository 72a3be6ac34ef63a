import { describe, expect, it } from 'vitest';
import type { Language } from '../../../runtimes/seam/types.js';
import { proseMarkersOf } from './markers.js';

/** The markers of `speaker` in `text` whose label starts with `label`. */
const markersOf = (speaker: Language, label: string) => (text: string) =>
  proseMarkersOf(speaker, text).filter((marker) => marker.startsWith(label));

/** The text `at(length)` meets the marker at `cap − 1` and `cap`, and not past `cap`: the span it is bounded to. */
function expectBoundedAt(markers: (text: string) => string[], at: (length: number) => string, cap: number): void {
  expect(markers(at(cap - 1))).toHaveLength(1);
  expect(markers(at(cap))).toHaveLength(1);
  expect(markers(at(cap + 1))).toEqual([]);
}

/** Each text of `marked` meets the marker once; no text of `english` meets it. */
function expectMarker(markers: (text: string) => string[], marked: string[], english: string[]): void {
  for (const text of marked) expect(markers(text), text).toHaveLength(1);
  for (const text of english) expect(markers(text), text).toEqual([]);
}

describe('the TypeScript markers of prose', () => {
  it('take `undefined` as a value, never the English word', () => {
    expectMarker(
      markersOf('typescript', '`undefined`'),
      [
        'A missing key reads as `undefined`.',
        'Check `city === undefined` first.',
        'A `string | undefined` field.',
        'It returns undefined when nothing matches.',
        'Fall back with value ?? undefined.',
      ],
      [
        'The order of concurrent calls is undefined; sort the results.',
        'Undefined behaviour follows a malformed argument.',
        'Fields left undefined by the tool are omitted.',
      ],
    );
  });

  it('take a type annotation followed by code, never a colon in a sentence', () => {
    expectMarker(
      markersOf('typescript', 'a TypeScript type annotation'),
      [
        '`(city: string) => lookup(city)`',
        'An argument `{ path: string }`.',
        '`const n: number = 1`',
        'A list `names: string[]`.',
        'A `note: string | null` field.',
        '`let ok: boolean;`',
      ],
      ['Returns: number of matches.', 'Type: string, UTF-8.', 'Output: boolean flag per city.'],
    );
  });

  it('take an arrow function, never an arrow between two words', () => {
    expectMarker(
      markersOf('typescript', 'an arrow `=>`'),
      [
        'Sort with results.sort((a, b) => a.rank - b.rank).',
        'Keep the good ones: hits.filter(x => x.ok).',
        'Wrap the calls in async () => { … }.',
        'Map each row with row => format(row).',
        'Pass a callback such as `row => row`.',
        'It ends with .then(() => ({ ok: true })).',
      ],
      [
        'Results map name => value.',
        'Status codes: 200 => found, 404 => missing.',
        'Call tools.search(q) => hits, newest first.',
        'An order moves draft => review => shipped.',
      ],
    );
  });
});

describe('the Python markers of prose', () => {
  it('take `None` as the value, never the English pronoun', () => {
    expectMarker(
      markersOf('python', '`None`'),
      [
        'It returns None when nothing matches.',
        'A `None` field is left out.',
        'Pass city=None for every city.',
        'None is returned for a missing key.',
        'Compare with `is None`.',
      ],
      [
        'None of the tools write files.',
        'None are returned twice.',
        'None were found: try a wider query.',
        'None have side effects, and none match a deleted record.',
        'None at all.',
      ],
    );
  });

  it('take a return annotation, never an arrow in a sentence', () => {
    expectMarker(
      markersOf('python', 'a return annotation'),
      [
        'def search(query: str) -> list[Hit]:',
        'Signature: `lookup(city) -> Weather`',
        'It is declared `async def f(self) -> None:` in the stubs.',
        'total(items) -> int',
      ],
      [
        'Call tools.search(q) -> a list of hits, newest first.',
        'tools.get(id) -> the order, or an error.',
        'Pipeline: fetch(url) -> parse -> store.',
      ],
    );
  });

  it('take a `lambda` expression, never the word', () => {
    expectMarker(
      markersOf('python', '`elif`/`lambda`'),
      ['Sort with key=lambda r: r.id.', 'A callback `lambda: 0`.', 'lambda a, b: a + b', 'a `lambda`'],
      ['Runs in an AWS lambda function.', 'Deploy it as a lambda; it scales to zero.'],
    );
  });
});

describe('the `tools` call marker', () => {
  const calls = markersOf('typescript', 'a `tools` call ended by `;`');

  it('reads up to 1,000 characters of arguments and 200 of a bracketed name, the spans it is bounded to', () => {
    expectBoundedAt(calls, (length) => `await tools.search(${'q'.repeat(length)});`, 1000);
    expectBoundedAt(calls, (length) => `await tools["${'n'.repeat(length - 2)}"]({});`, 200);
  });
});

describe('the arrow marker', () => {
  const arrows = markersOf('typescript', 'an arrow `=>`');

  it('reads up to 200 characters of a parameter list and of backticked code before the arrow, the spans it is bounded to', () => {
    expectBoundedAt(arrows, (length) => `(${'a'.repeat(length)}) => 1`, 200);
    expectBoundedAt(arrows, (length) => `\`${'a'.repeat(length)}=>b\``, 200);
  });
});

describe('`not None`', () => {
  const none = markersOf('python', '`None`');

  it("is Python's test after `is` up to 20 spaces back, the span it is bounded to, and ruled out past it", () => {
    expectBoundedAt(none, (spaces) => `Keep it if it is${' '.repeat(spaces)}not None.`, 20);
  });
});

describe('a language named only to rule it out', () => {
  const names = (speaker: Language, text: string) => markersOf(speaker, 'the name')(text);

  it('is not spoken: a backend steering its model away from it speaks its own language', () => {
    for (const text of [
      'Write Python, not JavaScript.',
      'Write Python, never JavaScript or TypeScript: the runtime is CPython.',
      'Python source code. Not TypeScript.',
      'Runs a Python program (no JavaScript) in a sandbox.',
      "Don't use TypeScript syntax here; do not write JavaScript either.",
      'Use Python instead of JavaScript, rather than TypeScript.',
      'JavaScript is not available; TypeScript isn’t either.',
      'Python, unlike JavaScript, awaits inside the module.',
      'There is no need for JavaScript.',
      'You do not need to write any TypeScript.',
    ])
      expect(names('typescript', text), text).toEqual([]);
    for (const text of ['Write JavaScript, not Python.', 'An async arrow function; no Python, no Pyodide.'])
      expect(names('python', text), text).toEqual([]);
  });

  it('rules out a list of up to five names, the first and four more', () => {
    const list = (count: number) =>
      Array.from({ length: count }, (_, i) => (i % 2 === 0 ? 'JavaScript' : 'TypeScript')).join(', ');
    expect(names('typescript', `Python, never ${list(4)}.`)).toEqual([]);
    expect(names('typescript', `Python, never ${list(5)}.`)).toEqual([]);
    // A sixth name is past the list: spoken, as in "never A, B, C, D, E, and then TypeScript".
    expect(names('typescript', `Python, never ${list(6)}.`)).toEqual(['the name TypeScript/JavaScript ("TypeScript")']);
  });

  it('rules out a name up to four words after the negation, and no further', () => {
    const words = ['write', 'any', 'plain', 'a', 'plain'];
    const negated = (count: number) => `Python; never ${words.slice(0, count).join(' ')} JavaScript.`;
    expect(names('typescript', negated(3))).toEqual([]);
    expect(names('typescript', negated(4))).toEqual([]);
    expect(names('typescript', negated(5))).toEqual(['the name TypeScript/JavaScript ("JavaScript")']);
  });

  it('is spoken wherever it is named without being ruled out', () => {
    for (const text of [
      'Write JavaScript.',
      'Write Python or JavaScript.',
      'Not only Python: JavaScript runs too.',
      'Python for the logic, TypeScript for the types.',
      'No Python here: the worker runs JavaScript.',
    ])
      expect(names('typescript', text), text).toHaveLength(1);
  });
});

describe('code named only to rule it out', () => {
  it('is not spoken: "print with print(), not console.log"', () => {
    for (const text of [
      'Print with print(), not console.log.',
      'Use print(x) instead of console.log(x).',
      'Do not write `const hits = await tools.search(q);` here.',
      '`console.log` is not captured; return the value.',
      'Avoid `=>`: write a def.',
    ])
      expect(proseMarkersOf('typescript', text), text).toEqual([]);
    for (const text of [
      'Log with console.log, not print().',
      "Don't call print(); nothing reads it.",
      'A callback, never `lambda r: r.id`.',
      'Never use `async def` or `elif`: write a function.',
      'A missing field is null, not None.',
      'Return undefined instead of None.',
    ])
      expect(proseMarkersOf('python', text), text).toEqual([]);
  });

  it('is spoken wherever it is shown without being ruled out', () => {
    for (const [speaker, text] of [
      ['typescript', 'Log with console.log(x).'],
      ['typescript', 'Not only print(): console.log works too.'],
      ['python', 'Print with print(x); the output is returned.'],
      ['python', 'Do not forget: print(x) is how you log.'],
      ['python', 'Keep a row when row is not None.'],
      ['python', 'Check `value is not None` first.'],
    ] as const)
      expect(proseMarkersOf(speaker, text), text).toHaveLength(1);
  });
});
