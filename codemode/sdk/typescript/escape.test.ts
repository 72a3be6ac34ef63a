import { describe, expect, it } from 'vitest';
import { docComment, isBareName, numberLiteral, propertyName, stringLiteral } from './escape.js';

describe('docComment', () => {
  it('writes one line as a one-line JSDoc and nothing for empty or blank text', () => {
    expect(docComment('Find pages.', '  ')).toEqual(['  /** Find pages. */']);
    expect(docComment('', '')).toEqual([]);
    expect(docComment('\n \r\n\u2028', '')).toEqual([]);
  });

  it('cannot be closed early by the text', () => {
    const lines = docComment('a */ b **/ c */*/', '');
    expect(lines).toEqual(['/** a *\\/ b **\\/ c *\\/*\\/ */']);
    expect(lines.join('\n').indexOf('*/')).toBe(lines.join('\n').length - 2);
  });

  it('breaks lines on CR, LF, CRLF and U+2028, and paragraphs on U+2029', () => {
    expect(docComment('one\rtwo\r\nthree\nfour\u2028five\u2029six', '  ')).toEqual([
      '  /** one',
      '  two',
      '  three',
      '  four',
      '  five',
      '',
      '  six */',
    ]);
  });

  it('escapes control characters and lone surrogates but keeps tabs and paired surrogates', () => {
    expect(docComment('a\u0000b\u001bc\u0085d\te\ud800f\udc00g😀', '')).toEqual([
      '/** a\\u0000b\\u001bc\\u0085d\te\\ud800f\\udc00g😀 */',
    ]);
  });

  it('trims trailing spaces and outer blank lines', () => {
    expect(docComment('\n\nfirst   \n\nlast\n\n', '')).toEqual(['/** first', '', 'last */']);
  });
});

describe('string literals and names', () => {
  it('escapes quotes, backslashes, controls, separators and lone surrogates', () => {
    expect(stringLiteral('a"b\\c\n\u0000\u2028\u2029\ud800')).toBe('"a\\"b\\\\c\\n\\u0000\\u2028\\u2029\\ud800"');
  });

  it('writes ASCII identifiers bare and quotes everything else', () => {
    expect(isBareName('search_docs')).toBe(true);
    expect(isBareName('$x1')).toBe(true);
    expect(propertyName('delete')).toBe('delete');
    expect(propertyName('a-b')).toBe('"a-b"');
    expect(propertyName('1st')).toBe('"1st"');
    expect(propertyName('')).toBe('""');
    expect(propertyName('café')).toBe('"café"');
  });
});

describe('numberLiteral', () => {
  it('writes integers with all their digits, in the shortest form that reads back as the same number', () => {
    expect(numberLiteral(1e21)).toBe('1000000000000000000000');
    expect(numberLiteral(-1.2345e25)).toBe('-12345000000000000000000000');
    expect(numberLiteral(-(2 ** 60))).toBe('-1152921504606847000');
    expect(numberLiteral(1e300)).toBe(`1${'0'.repeat(300)}`);
    expect(numberLiteral(Number.MAX_VALUE)).toMatch(/^179769313486231570{292}$/);
    expect(numberLiteral(-0)).toBe('0');
    for (const value of [1e21, -1.2345e25, 2 ** 53 + 2, 1e300, Number.MAX_VALUE, -Number.MAX_VALUE]) {
      expect(Number(numberLiteral(value))).toBe(value);
    }
  });

  it('writes other numbers in their shortest round-tripping form', () => {
    expect(numberLiteral(0.1)).toBe('0.1');
    expect(numberLiteral(-1.5e-7)).toBe('-1.5e-7');
    expect(Number(numberLiteral(Number.MIN_VALUE))).toBe(Number.MIN_VALUE);
  });
});
