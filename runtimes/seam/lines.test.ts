import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './lines.js';

function splitter(maxLineBytes: number): { push: (text: string | Buffer) => string[]; oversized: () => number } {
  let oversized = 0;
  const lines = new LineSplitter(maxLineBytes, () => void oversized++);
  return {
    push: (text) => lines.push(typeof text === 'string' ? Buffer.from(text) : text),
    oversized: () => oversized,
  };
}

describe('line splitter', () => {
  it('joins lines across chunks, multi-byte characters cut anywhere included', () => {
    const { push } = splitter(100);
    const text = Buffer.from('first\nsé€😀cond\n\nthird-without-newline', 'utf8');
    const lines: string[] = [];
    for (const byte of text) lines.push(...push(Buffer.of(byte)));
    expect(lines).toEqual(['first', 'sé€😀cond', '']);
  });

  it('keeps a line of exactly the cap and drops one byte more whole, then goes on', () => {
    const { push, oversized } = splitter(8);
    expect(push('ab')).toEqual([]);
    expect(push('cdefgh\n')).toEqual(['abcdefgh']);
    expect(oversized()).toBe(0);
    expect(push('012345678')).toEqual([]);
    expect(oversized()).toBe(1);
    expect(push('more\nok\n')).toEqual(['ok']);
    expect(oversized()).toBe(1);
  });

  it('drops a long line inside one chunk without holding it', () => {
    const { push, oversized } = splitter(4);
    expect(push('ok\ntoo long\nok\n')).toEqual(['ok', 'ok']);
    expect(oversized()).toBe(1);
  });
});
