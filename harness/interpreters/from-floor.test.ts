import { describe, expect, it } from 'vitest';
import { rejectionPlace } from './from-floor.js';

describe('where a rejected SDK fails', () => {
  it('is its line and column, its line alone, or, where the interpreter names no place, the first line of its error', () => {
    expect(rejectionPlace({ line: 3, column: 7, error: 'SyntaxError at line 3, column 7: invalid character' })).toBe(
      'line 3, column 7',
    );
    expect(rejectionPlace({ line: 3, error: 'SyntaxError at line 3: unexpected EOF' })).toBe('line 3');
    expect(
      rejectionPlace({
        error: "UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud800': surrogates not allowed\n(more)",
      }),
    ).toBe("UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud800': surrogates not allowed");
    for (const cell of [{ line: 3, column: 7 }, { line: 3 }, { error: 'ValueError: x' }])
      expect(rejectionPlace(cell)).not.toContain('?');
  });
});
