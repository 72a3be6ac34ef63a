import { describe, expect, it } from 'vitest';
import { LONE_SURROGATE, wtf8Bytes, wtf8Text } from './wtf8.js';

describe('WTF-8', () => {
  // Each side of every length edge of UTF-8, and both ends of the surrogate range.
  const edges = [0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xffff, 0x10000, 0x10ffff].map((p) =>
    String.fromCodePoint(p),
  );

  it('is UTF-8 for text UTF-8 can hold, and reads it back', () => {
    for (const char of edges) {
      const text = `a${char}b`;
      expect(LONE_SURROGATE.test(text)).toBe(false);
      expect(Buffer.from(wtf8Bytes(text))).toEqual(Buffer.from(text, 'utf8'));
      expect(wtf8Text(Buffer.from(text, 'utf8'))).toBe(text);
    }
  });

  it('keeps a lone surrogate as the three bytes of its code point, and reads it back', () => {
    for (const [text, hex] of [
      ['\ud800', 'eda080'],
      ['\udbff', 'edafbf'],
      ['\udc00', 'edb080'],
      ['\udfff', 'edbfbf'],
    ] as const) {
      expect(LONE_SURROGATE.test(`x${text}y`)).toBe(true);
      expect(Buffer.from(wtf8Bytes(text)).toString('hex')).toBe(hex);
      expect(wtf8Text(wtf8Bytes(`x${text}y`))).toBe(`x${text}y`);
    }
    // Two lone halves in the wrong order are two lone surrogates, not a pair.
    expect(wtf8Text(wtf8Bytes('\udc00\ud800'))).toBe('\udc00\ud800');
  });

  it('reads a byte that starts no sequence, or a cut sequence, as U+FFFD', () => {
    expect(wtf8Text(Uint8Array.from([0x61, 0x80, 0x62]))).toBe('a\ufffdb');
    expect(wtf8Text(Uint8Array.from([0x61, 0xe2, 0x82]))).toBe('a\ufffd\ufffd');
    expect(wtf8Text(Uint8Array.from([0xf8, 0x61]))).toBe('\ufffda');
  });
});
