import { type Document, Scalar, type ToStringOptions, visit } from 'yaml';

/**
 * Characters yaml prints as they are but not every reader takes back: DEL, the C1 controls and U+FFFE/U+FFFF,
 * which a YAML stream may not hold unescaped (PyYAML refuses the file), and NEL, U+2028 and U+2029, which YAML
 * 1.1 readers take for line breaks and fold.
 */
const UNPRINTABLE = /[\x7f-\x9f\u2028\u2029\ufffe\uffff]/;

const ESCAPES: Record<string, string> = { '\x85': '\\N', '\u2028': '\\L', '\u2029': '\\P' };

function escapeOf(char: string): string {
  const code = char.charCodeAt(0);
  return (
    ESCAPES[char] ??
    (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).toUpperCase()}`)
  );
}

/**
 * The text of `doc` as every YAML reader reads it back: a string holding an UNPRINTABLE character is written
 * double-quoted with that character escaped. Every YAML file concord writes is printed through here.
 */
export function yamlText(doc: Document, options: ToStringOptions): string {
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && UNPRINTABLE.test(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  // Only a double-quoted scalar can hold one of these now, where an escape stands for the character (or a
  // comment of a file read back, which must not hold one either).
  return doc.toString(options).replace(new RegExp(UNPRINTABLE.source, 'g'), escapeOf);
}
