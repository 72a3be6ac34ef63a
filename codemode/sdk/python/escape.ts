/**
 * Escaping for the three places tool-supplied text lands in the Python SDK: string literals, docstrings
 * and comments. Whatever the text holds, the block must stay one valid Python module whose meaning the
 * reader can see: no NUL (compile() refuses it), no lone surrogate (not encodable as UTF-8), no character
 * that ends a line (CPython's tokenizer also ends one at a bare CR; editors and models end one at U+2028,
 * U+2029 and U+0085), and no invisible bidirectional control that could reorder what the reader sees.
 */

const BIDI_CONTROLS = new Set([
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
]);

const LINE_BREAK = /\r\n|\r|\n/;

function mustEscape(codePoint: number): boolean {
  return (
    codePoint < 0x20 ||
    (codePoint >= 0x7f && codePoint <= 0x9f) ||
    codePoint === 0x2028 ||
    codePoint === 0x2029 ||
    isSurrogate(codePoint) ||
    codePoint === 0xfeff ||
    BIDI_CONTROLS.has(codePoint)
  );
}

/** The Python escape sequence spelling one code point: `\x00`, `\u2028`, `\ud800`. */
function escapeSequence(codePoint: number): string {
  return codePoint <= 0xff
    ? `\\x${codePoint.toString(16).padStart(2, '0')}`
    : `\\u${codePoint.toString(16).padStart(4, '0')}`;
}

/** A double-quoted Python `str` literal whose value is exactly `text` (lone surrogates included). */
export function pythonStringLiteral(text: string): string {
  const parts: string[] = ['"'];
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (char === '\\') parts.push('\\\\');
    else if (char === '"') parts.push('\\"');
    else if (char === '\n') parts.push('\\n');
    else if (char === '\r') parts.push('\\r');
    else if (char === '\t') parts.push('\\t');
    else if (mustEscape(codePoint)) parts.push(escapeSequence(codePoint));
    else parts.push(char);
  }
  parts.push('"');
  return parts.join('');
}

/** Printable ASCII (tab included) without a backslash. */
const PLAIN_PROSE = /^[\t\x20-\x5b\x5d-\x7e]*$/;

function isSurrogate(codePoint: number): boolean {
  return codePoint >= 0xd800 && codePoint <= 0xdfff;
}

/**
 * One line of prose with every dangerous code point spelled as an escape; tabs stay. In a docstring
 * (`inString`) backslashes are doubled, and a lone surrogate is written as visible text (`\\ud800`), not
 * as an escape: CPython 3.13 cleans docstrings at compile time through UTF-8 and fails on a surrogate value.
 */
function escapeProseLine(line: string, inString: boolean): string {
  // Most prose is printable ASCII without a backslash: nothing to spell.
  if (PLAIN_PROSE.test(line)) return line;
  const parts: string[] = [];
  for (const char of line) {
    const codePoint = char.codePointAt(0)!;
    if (char === '\\') parts.push(inString ? '\\\\' : '\\');
    else if (char === '\t' || !mustEscape(codePoint)) parts.push(char);
    else if (inString && isSurrogate(codePoint)) parts.push(`\\${escapeSequence(codePoint)}`);
    else parts.push(escapeSequence(codePoint));
  }
  return parts.join('');
}

/**
 * A triple-quoted docstring showing `text`; continuation lines are indented by `indent`. A quote is escaped
 * only where it could close the string: before another quote, or as the last character.
 */
export function pythonDocstring(text: string, indent: string): string {
  const body = text
    .split(LINE_BREAK)
    .map((line, index) => {
      const escaped = escapeProseLine(line, true);
      return index === 0 || escaped === '' ? escaped : indent + escaped;
    })
    .join('\n');
  return `"""${body.replace(/"(?="|$)/g, '\\"')}"""`;
}

/** `text` as comment lines (`# …`), one per line of the text, each prefixed by `indent`, text by `lead`. */
export function pythonCommentLines(text: string, indent: string, lead = ''): string[] {
  return text.split(LINE_BREAK).map((line) => {
    const escaped = escapeProseLine(line, false);
    return escaped === '' ? `${indent}#` : `${indent}# ${lead}${escaped}`;
  });
}
