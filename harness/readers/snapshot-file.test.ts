import { format, plugins } from '@vitest/pretty-format';
import { describe, expect, it } from 'vitest';
import { isSnapshotFile, snapshotEntries } from './snapshot-file.js';

/** As vitest prints a snapshot (its defaults) and as Jest does (the prototype before each object and array). */
const VITEST = {
  printBasicPrototype: false,
  escapeString: false,
  indent: 2,
  escapeRegex: true,
  printFunctionName: false,
};
const JEST = { ...VITEST, printBasicPrototype: true };
const PLUGINS = [plugins.DOMCollection, plugins.DOMElement, plugins.Immutable, plugins.AsymmetricMatcher];

/** A snapshot file as vitest writes one: each value printed, escaped into a template string, in name order. */
function snapFile(entries: Record<string, unknown>, options = VITEST): string {
  const escaped = (text: string) => `\`${text.replace(/`|\\|\$\{/g, '\\$&')}\``;
  const body = Object.entries(entries).map(([name, value]) => {
    const printed = format(value, { ...options, plugins: PLUGINS });
    return `exports[${escaped(name)}] = ${escaped(printed.includes('\n') ? `\n${printed}\n` : printed)};`;
  });
  return `// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html\n\n${body.join('\n\n')}\n`;
}

const valuesOf = (text: string) => snapshotEntries(text)!.map((entry) => ('value' in entry ? entry.value : entry));

/** A body whose strings hold quotes, backticks, `${`, backslashes and line breaks, and text at every indentation. */
const TRICKY = {
  model: 'm',
  temperature: 0.5,
  big: 1e21,
  negative: -3,
  flag: false,
  nothing: null,
  empty: [],
  none: {},
  system: 'Call "search" first, then "fetch".\n  }\n    ],\n{"compact": "json", "is": "fine"}\n',
  messages: [
    {
      role: 'system',
      content:
        'Say "hi", then:\n      "quoted" line\n    },\nThe tools:\n```python\nclass T:\n    """`a` ${x} \\n \\\\"""\n```\n',
    },
    { role: 'user', content: ['a", ', '"', '', ' ', '\n'] },
  ],
  nested: [[], [[1, 'two', { three: [] }]], ['" ]']],
};

/** Strings shaped as entries: a JSON example pretty-printed in a prompt, at the indentation of the entries around it. */
const ENTRY_SHAPED = {
  system: 'Answer like this:\n{\n  "a": "x",\n  "n": "y"\n}\nThanks.',
  tools: [],
};

describe('reading a snapshot file back', () => {
  it('reads the values vitest printed, strings that look like the structure around them included', () => {
    const file = snapFile({ 'agent > sends the SDK 1': TRICKY, 'agent > its JSON 1': JSON.stringify(TRICKY) });
    const entries = snapshotEntries(file)!;
    expect(entries.map(({ name, line }) => [name, line])).toEqual([
      ['agent > sends the SDK 1', 3],
      ['agent > its JSON 1', expect.any(Number)],
    ]);
    expect(valuesOf(file)).toEqual([TRICKY, JSON.stringify(TRICKY)]);
  });

  it('reads a file checked out with CRLF line endings as the LF one the writer wrote', () => {
    const file = snapFile({ 'agent > sends the SDK 1': TRICKY });
    expect(valuesOf(file.replace(/\n/g, '\r\n'))).toEqual([TRICKY]);
  });

  it('reads what Jest prints (Object {, Array [) as what vitest prints; keys a suite keeps unsorted are refused', () => {
    expect(valuesOf(snapFile({ 'a 1': TRICKY }, JEST))).toEqual([TRICKY]);
    // Sorted keys are what rule out most other readings of unescaped strings.
    const unsorted = { tools: [], messages: [{ role: 'user', content: 'b' }], model: 'm' };
    const [read] = valuesOf(snapFile({ 'a 1': unsorted }, { ...VITEST, compareKeys: null } as typeof VITEST));
    expect(read).toMatchObject({ problem: 'keys in sorted order expected at line 3 of the snapshot' });
  });

  it('leaves out a key whose value is undefined, and reads one in a list as null, as JSON does', () => {
    expect(valuesOf(snapFile({ 'a 1': { a: undefined, b: [undefined, 1] } }))).toEqual([{ b: [null, 1] }]);
  });

  it('refuses a string shaped as entries rather than read it one of the ways it reads', () => {
    const [read] = snapshotEntries(snapFile({ 'a 1': ENTRY_SHAPED }))!;
    expect(read).toMatchObject({ problem: expect.stringMatching(/^a string that holds text shaped as an entry/) });
    // A compact example whose entry ends a line: cut there, the rest reads as a key of the body's own, in order.
    const compact = { system: 'Reply as {"q": "x",\n  "zy": "y"}', zz: 1 };
    expect(snapshotEntries(snapFile({ 'b 1': compact }))![0]).toMatchObject({
      problem: expect.stringMatching(/^a string that holds text shaped as an entry/),
    });
    // As the JSON text of the body it reads exactly.
    expect(valuesOf(snapFile({ 'a 1': JSON.stringify(ENTRY_SHAPED, null, 2) }))).toEqual([
      JSON.stringify(ENTRY_SHAPED, null, 2),
    ]);
  });

  it('never reads a wrong value: random values whose strings are made of quotes, commas, brackets and line breaks', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = ['"', ',', '\n', ' ', '  ', '{', '}', '[', ']', ':', 'a', '`', '\\', '${', '": ', 'k0'];
    const text = () => Array.from({ length: random(12) }, () => alphabet[random(alphabet.length)]).join('');
    const value = (depth: number): unknown => {
      const kind = random(depth > 3 ? 3 : 5);
      if (kind === 0) return text();
      if (kind === 1) return random(3) === 0 ? null : random(1000) - 500;
      if (kind === 2) return random(2) === 0;
      if (kind === 3) return Array.from({ length: random(4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: random(4) }, (_, i) => [`k${i}${text()}`, value(depth + 1)]));
    };
    let read = 0;
    for (let i = 0; i < 1000; i++) {
      const original = value(0);
      const [entry] = snapshotEntries(snapFile({ [`case ${i}`]: original }))!;
      if (entry && 'value' in entry) {
        expect(entry.value, JSON.stringify(original)).toEqual(original);
        read++;
      }
    }
    // Most are read; the rest are refused, none misread.
    expect(read).toBeGreaterThan(500);
  });

  it('says why a value JSON does not have cannot be read back, and where', () => {
    const [date, fn] = snapshotEntries(snapFile({ 'a 1': { at: new Date(0) }, 'b 1': { f: () => 1 } }))!;
    expect(date).toMatchObject({
      name: 'a 1',
      line: 3,
      problem: 'a value JSON does not have (a function, a date, a map, a class instance) at line 2 of the snapshot',
    });
    expect(fn).toMatchObject({ name: 'b 1', problem: expect.stringMatching(/^a value JSON does not have/) });
  });

  it('says a value nested deeper than it can read is too deep, and does not fail with it', () => {
    const depth = 5000;
    const open = Array.from({ length: depth }, (_, i) => `[\n${' '.repeat(2 * (i + 1))}`).join('');
    const close = Array.from({ length: depth }, (_, i) => `,\n${' '.repeat(2 * (depth - 1 - i))}]`).join('');
    const [read] = snapshotEntries(`exports[\`deep 1\`] = \`\n${open}1${close}\n\`;\n`)!;
    expect(read).toMatchObject({ name: 'deep 1', problem: 'it nests too deeply to read back' });
  });

  it('knows a snapshot file by its header or its name, and finds no entry in other text', () => {
    expect(isSnapshotFile('a.test.ts.snap', '')).toBe(true);
    expect(isSnapshotFile('body.json', '// Jest Snapshot v1, https://goo.gl/fbAQLP\n')).toBe(true);
    expect(isSnapshotFile('body.json', '{"messages": []}')).toBe(false);
    expect(snapshotEntries('{"messages": []}')).toBeUndefined();
    expect(snapshotEntries('exports[`a 1`] = `"open')).toMatchObject([
      { name: 'a 1', line: 1, problem: 'its value is not a closed template string' },
    ]);
  });
});
