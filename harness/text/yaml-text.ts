import { type Document, Scalar, type ScalarTag, type ToStringOptions, visit } from 'yaml';
import { LONE_SURROGATE, wtf8Bytes, wtf8Text } from './wtf8.js';

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
 * How concord reads `!!binary` back: as the text its bytes hold in WTF-8. A string with a lone surrogate is
 * written that way, since libyaml (PyYAML's `CSafeLoader`) refuses the `\ud800` escape; every reader takes
 * `!!binary`, and concord reads the same string back.
 */
export const TEXT_BINARY_TAG: ScalarTag = {
  tag: 'tag:yaml.org,2002:binary',
  identify: () => false,
  resolve: (base64: string) => wtf8Text(Buffer.from(base64.replace(/\s+/g, ''), 'base64')),
};

/**
 * The text of `doc` as every YAML reader reads it back: a string holding an UNPRINTABLE character is written
 * double-quoted with that character escaped; one holding a lone surrogate as `!!binary` of its WTF-8 bytes,
 * its escaped form in a comment beside it for the reviewer. Every YAML file concord writes is printed through here.
 */
export function yamlText(doc: Document, options: ToStringOptions): string {
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      if (LONE_SURROGATE.test(node.value)) {
        node.comment = ` ${JSON.stringify(node.value)}`;
        node.value = Buffer.from(wtf8Bytes(node.value)).toString('base64');
        node.tag = TEXT_BINARY_TAG.tag;
        node.type = Scalar.PLAIN;
      } else if (UNPRINTABLE.test(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  // Only a double-quoted scalar can hold one of these now, where an escape stands for the character (or a
  // comment of a file read back, which must not hold one either).
  return doc.toString(options).replace(new RegExp(UNPRINTABLE.source, 'g'), escapeOf);
}
