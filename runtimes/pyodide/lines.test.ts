import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines } from './lines.js';

function reader(maxLineBytes: number): { stream: PassThrough; lines: string[]; oversized: () => number } {
  const stream = new PassThrough();
  const lines: string[] = [];
  let oversized = 0;
  readLines(stream, maxLineBytes, { onLine: (line) => lines.push(line), onOversize: () => void oversized++ });
  return { stream, lines, oversized: () => oversized };
}

describe('readLines', () => {
  it('splits lines across chunk boundaries, multi-byte characters included', () => {
    const { stream, lines } = reader(100);
    const text = Buffer.from('first\nsé€😀cond\n\nthird-without-newline', 'utf8');
    // One byte at a time: every character is cut in the middle somewhere.
    for (const byte of text) stream.write(Buffer.of(byte));
    expect(lines).toEqual(['first', 'sé€😀cond', '']);
  });

  it('gives up on a line past the cap, without waiting for its end, and reads nothing after it', () => {
    const { stream, lines, oversized } = reader(10);
    stream.write('0123456789\nabc');
    stream.write('defghijk');
    expect(oversized()).toBe(1);
    stream.write('\nlater\n');
    expect(lines).toEqual(['0123456789']);
    expect(oversized()).toBe(1);
  });

  it('gives up on a long line inside one chunk', () => {
    const { stream, lines, oversized } = reader(4);
    stream.write('ok\ntoo long\nok\n');
    expect(lines).toEqual(['ok']);
    expect(oversized()).toBe(1);
  });
});
