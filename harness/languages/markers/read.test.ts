import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Language } from '../../../runtimes/seam/types.js';
import { LANGUAGE_PACKS, LANGUAGES } from '../packs.js';
import { proseMarkersOf } from './read.js';
import { FILLER_REACH, LIST_REACH, LOOK_BACK_SPACES } from './words.js';

/** The labels of the markers of `speaker` in `text`. */
const labelsOf = (speaker: Language, text: string) =>
  proseMarkersOf(LANGUAGE_PACKS[speaker], text).map((marker) => marker.replace(/ \(".*"\)$/s, ''));

/** The markers of `speaker` in `text` whose label starts with `label`. */
const markersOf = (speaker: Language, label: string) => (text: string) =>
  proseMarkersOf(LANGUAGE_PACKS[speaker], text).filter((marker) => marker.startsWith(label));

/** The text `at(length)` meets the marker at `cap − 1` and `cap`, and not past `cap`: the span it is bounded to. */
function expectBoundedAt(markers: (text: string) => string[], at: (length: number) => string, cap: number): void {
  expect(markers(at(cap - 1))).toHaveLength(1);
  expect(markers(at(cap))).toHaveLength(1);
  expect(markers(at(cap + 1))).toEqual([]);
}

interface Sentence {
  text: string;
  typescript?: string[];
  python?: string[];
}
const groups = parse(readFileSync(new URL('./sentences.yaml', import.meta.url), 'utf8')) as Array<{
  topic: string;
  sentences: Sentence[];
}>;

describe.each(groups)('the prose markers: $topic', ({ sentences }) => {
  it.each(sentences)('$text', (sentence) => {
    for (const language of LANGUAGES)
      expect(labelsOf(language, sentence.text), language).toEqual(sentence[language] ?? []);
  });
});

describe('the bounded spans of the prose markers', () => {
  it('read up to 1,000 characters of a `tools` call and 200 of a bracketed name', () => {
    const calls = markersOf('typescript', 'a `tools` call ended by `;`');
    expectBoundedAt(calls, (length) => `await tools.search(${'q'.repeat(length)});`, 1000);
    expectBoundedAt(calls, (length) => `await tools["${'n'.repeat(length - 2)}"]({});`, 200);
  });

  it('read up to 200 characters of a parameter list and of backticked code before an arrow', () => {
    const arrows = markersOf('typescript', 'an arrow `=>`');
    expectBoundedAt(arrows, (length) => `(${'a'.repeat(length)}) => 1`, 200);
    expectBoundedAt(arrows, (length) => `\`${'a'.repeat(length)}=>b\``, 200);
  });

  it("take `not None` for Python's test after `is` up to the look back, and ruled out past it", () => {
    const none = markersOf('python', '`None`');
    expectBoundedAt(none, (spaces) => `Keep it if it is${' '.repeat(spaces)}not None.`, LOOK_BACK_SPACES);
  });
});

describe('a language named only to rule it out', () => {
  const names = (text: string) => markersOf('typescript', 'the name')(text);

  it('rules out a list of the first name and up to four more', () => {
    const list = (count: number) =>
      Array.from({ length: count }, (_, i) => (i % 2 === 0 ? 'JavaScript' : 'TypeScript')).join(', ');
    expect(names(`Python, never ${list(LIST_REACH)}.`)).toEqual([]);
    expect(names(`Python, never ${list(LIST_REACH + 1)}.`)).toEqual([]);
    // A name past the list is spoken, as in "never A, B, C, D, E, and then TypeScript".
    expect(names(`Python, never ${list(LIST_REACH + 2)}.`)).toEqual(['the name TypeScript/JavaScript ("TypeScript")']);
  });

  it('rules out a name up to four words after the negation, and no further', () => {
    const words = ['write', 'any', 'plain', 'a', 'plain'];
    const negated = (count: number) => `Python; never ${words.slice(0, count).join(' ')} JavaScript.`;
    expect(names(negated(FILLER_REACH - 1))).toEqual([]);
    expect(names(negated(FILLER_REACH))).toEqual([]);
    expect(names(negated(FILLER_REACH + 1))).toEqual(['the name TypeScript/JavaScript ("JavaScript")']);
  });
});
