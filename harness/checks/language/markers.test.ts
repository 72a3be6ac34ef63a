import { describe, expect, it } from 'vitest';
import { proseMarkersOf } from './markers.js';

const undefinedMarkers = (text: string) =>
  proseMarkersOf('typescript', text).filter((m) => m.startsWith('`undefined`'));

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
});
