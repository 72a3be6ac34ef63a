import { describe, expect, it } from 'vitest';
import { proseMarkersOf } from './markers.js';

/** The TypeScript markers of `text` whose label starts with `label`. */
const markersOf = (label: string) => (text: string) =>
  proseMarkersOf('typescript', text).filter((marker) => marker.startsWith(label));
const undefinedMarkers = markersOf('`undefined`');
const annotations = markersOf('a TypeScript type annotation');

describe('the TypeScript markers of prose', () => {
  it('take `undefined` as a value, never the English word', () => {
    for (const value of [
      'A missing key reads as `undefined`.',
      'Check `city === undefined` first.',
      'A `string | undefined` field.',
      'It returns undefined when nothing matches.',
      'Fall back with value ?? undefined.',
    ])
      expect(undefinedMarkers(value), value).toHaveLength(1);
    for (const english of [
      'The order of concurrent calls is undefined; sort the results.',
      'Undefined behaviour follows a malformed argument.',
      'Fields left undefined by the tool are omitted.',
    ])
      expect(undefinedMarkers(english), english).toEqual([]);
  });

  it('take a type annotation followed by code, never a colon in a sentence', () => {
    for (const code of [
      '`(city: string) => lookup(city)`',
      'An argument `{ path: string }`.',
      '`const n: number = 1`',
      'A list `names: string[]`.',
      'A `note: string | null` field.',
      '`let ok: boolean;`',
    ])
      expect(annotations(code), code).toHaveLength(1);
    for (const english of ['Returns: number of matches.', 'Type: string, UTF-8.', 'Output: boolean flag per city.'])
      expect(annotations(english), english).toEqual([]);
  });
});
