import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Document, parse, Scalar, visit } from 'yaml';
import { TEXT_BINARY_TAG, yamlText } from './yaml-text.js';

/**
 * YAML 1.2's printable characters (what a stream may hold as it is), without NEL, U+2028 and U+2029, which
 * YAML 1.1 readers (PyYAML) take for line breaks.
 */
const READ_BACK_BY_EVERY_READER = /^[\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

/**
 * `value` as a document; with `blocks`, its strings of several lines asked for as block scalars (as transcripts do).
 */
const documentOf = (value: unknown, blocks: boolean): Document => {
  const doc = new Document(value);
  if (blocks)
    visit(doc, {
      Scalar: (_key, node) =>
        void (typeof node.value === 'string' && node.value.includes('\n') && (node.type = Scalar.BLOCK_LITERAL)),
    });
  return doc;
};

const text = (value: unknown, blocks: boolean): string => yamlText(documentOf(value, blocks), { lineWidth: 0 });

describe('yamlText', () => {
  // Each side of every edge of the set: DEL and the C1 controls, NEL among them, the two Unicode line
  // separators, the two non-characters at the end of the BMP.
  const escaped: Array<[string, string]> = [
    ['\x7f', '\\x7f'],
    ['\x80', '\\x80'],
    ['\x85', '\\N'],
    ['\x9b', '\\x9b'],
    ['\x9f', '\\x9f'],
    ['\u2028', '\\L'],
    ['\u2029', '\\P'],
    ['\ufffe', '\\uFFFE'],
    ['\uffff', '\\uFFFF'],
  ];
  it.each(escaped)(
    'writes %j as the escape %s, in a value, a key and a text of several lines, and reads it back',
    (char, escape) => {
      const value = { [`key${char}`]: `a${char}b`, lines: `one${char}\ntwo\n` };
      for (const blocks of [false, true]) {
        const yaml = text(value, blocks);
        expect(yaml).toMatch(READ_BACK_BY_EVERY_READER);
        expect(yaml).toContain(escape);
        expect(parse(yaml)).toEqual(value);
      }
    },
  );

  const kept = ['\x7e', '\xa0', '\u2027', '\u202a', '\ufffd', '\u{10000}', 'é ✓ 😀'];
  it.each(kept)('leaves %j and the scalars as yaml writes them', (char) => {
    const value = { [`key${char}`]: `a${char}b`, lines: `one${char}\ntwo\n` };
    for (const blocks of [false, true]) {
      expect(text(value, blocks)).toBe(documentOf(value, blocks).toString({ lineWidth: 0 }));
      expect(text(value, blocks)).toContain(char);
    }
  });

  // A lone high or low surrogate, at either end, in a key, in a text of several lines; a pair stays as it is.
  const lone = { 'key\udfff': 'a\ud800b', start: '\udc00x', end: 'x\udbff', lines: 'one\ud800\ntwo\n', pair: '😀' };

  it('writes a string with a lone surrogate as !!binary of its WTF-8 bytes, its escape in a comment, and reads it back', () => {
    for (const blocks of [false, true]) {
      const yaml = text(lone, blocks);
      expect(yaml).toMatch(READ_BACK_BY_EVERY_READER);
      expect(yaml).toContain('start: !!binary 7bCAeA== # "\\udc00x"');
      expect(yaml).toContain('pair: 😀');
      expect(parse(yaml, { customTags: [TEXT_BINARY_TAG] })).toEqual(lone);
    }
  });

  const pyyaml = spawnSync('python3', ['-c', 'import yaml; yaml.CSafeLoader'], { encoding: 'utf8' });
  it.skipIf(pyyaml.status !== 0)(
    'gives libyaml (PyYAML CSafeLoader) a file it reads, the text back with surrogatepass',
    () => {
      const read = spawnSync(
        'python3',
        [
          '-c',
          [
            'import json, sys, yaml',
            'data = yaml.load(sys.stdin.buffer.read(), Loader=yaml.CSafeLoader)',
            'text = lambda v: v.decode("utf-8", "surrogatepass") if isinstance(v, bytes) else v',
            'print(json.dumps({text(k): text(v) for k, v in data.items()}))',
          ].join('\n'),
        ],
        { input: text(lone, true), encoding: 'utf8' },
      );
      expect(read.stderr).toBe('');
      expect(JSON.parse(read.stdout)).toEqual(lone);
    },
  );
});
