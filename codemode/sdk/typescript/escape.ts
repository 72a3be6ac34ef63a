/** Text made safe for the places a TypeScript declaration file puts it: comments and string literals. */

const ASCII_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Whether a name can be written bare as a property or method name. Only ASCII: the compiler's Unicode
 * identifier tables may be older than the text's, and a quoted name always means the same key.
 */
export function isBareName(name: string): boolean {
  return ASCII_IDENTIFIER.test(name);
}

/**
 * A string literal: JSON escapes quotes, backslashes, control characters and lone surrogates; the line
 * and paragraph separators are escaped too so that every literal stays on one visible line.
 */
export function stringLiteral(text: string): string {
  return JSON.stringify(text).replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
}

/** A property or method name: bare when it is an ASCII identifier, else a quoted string key. */
export function propertyName(name: string): string {
  return isBareName(name) ? name : stringLiteral(name);
}

/**
 * A numeric literal type in the shortest form that reads back as the same double. Integers are written
 * with all their digits: `1e+21` is how JavaScript prints 10^21, not how a tool author writes an integer.
 */
export function numberLiteral(value: number): string {
  const shortest = String(value);
  const exponential = /^(-?)(\d)(?:\.(\d+))?e\+(\d+)$/.exec(shortest);
  if (exponential === null || !Number.isInteger(value)) return shortest;
  const [, sign, lead, fraction = '', exponent] = exponential;
  return `${sign}${lead}${fraction}${'0'.repeat(Number(exponent) - fraction.length)}`;
}

/**
 * Characters a comment must not hold raw: C0/C1 controls (tab aside), which editors and terminals render
 * unpredictably, and lone surrogates, which cannot be written as UTF-8. Line terminators are split on
 * before this runs.
 */
const UNPRINTABLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function commentLine(line: string): string {
  return line
    .replace(UNPRINTABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\*\//g, '*\\/')
    .trimEnd();
}

/**
 * A JSDoc block for `text`, each line starting with `indent`, or no lines for empty text. Lines go without
 * the leading ` * ` (optional in JSDoc): a long description costs a model fewer tokens. Every line terminator
 * JavaScript knows (CR, LF, U+2028) breaks a line and U+2029 a paragraph; `*\/` cannot appear, so nothing in
 * the text can close the comment early.
 */
export function docComment(text: string, indent: string): string[] {
  const lines = text
    .replace(/\u2029/g, '\n\n')
    .split(/\r\n|[\r\n\u2028]/)
    .map(commentLine);
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start] === '') start++;
  while (end > start && lines[end - 1] === '') end--;
  if (start === end) return [];
  if (end - start === 1) return [`${indent}/** ${lines[start]} */`];
  const block = [`${indent}/** ${lines[start]}`];
  for (let index = start + 1; index < end - 1; index++)
    block.push(lines[index] === '' ? '' : `${indent}${lines[index]}`);
  block.push(`${indent}${lines[end - 1]} */`);
  return block;
}
