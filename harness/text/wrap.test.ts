import { describe, expect, it } from 'vitest';
import { fromProjectRoot } from './project-paths.js';
import { TEXT_COLUMNS, wrapLine, wrapText } from './wrap.js';

describe('wrapping a sentence', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${String(i).padStart(3, '0')}`).join(' ');

  it('keeps a line of 100 columns whole and breaks one of 101 at its last space', () => {
    const hundred = `${'x'.repeat(95)} abcd`;
    expect(hundred).toHaveLength(TEXT_COLUMNS);
    expect(wrapLine(hundred)).toEqual([hundred]);
    expect(wrapLine(`${hundred}e`)).toEqual(['x'.repeat(95), '  abcde']);
  });

  it('keeps the indentation, hangs the lines after the first, and never passes the width', () => {
    const lines = wrapLine(`    ${words(60)}`);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines[0]!.startsWith('    w000 ')).toBe(true);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {6}w\d{3}/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(TEXT_COLUMNS);
    expect(lines.map((l) => l.trim()).join(' ')).toBe(words(60));
  });

  it('leaves a word longer than a line whole, and counts no column for color codes', () => {
    const path = `/${'p'.repeat(150)}`;
    expect(wrapLine(`see ${path} now`)).toEqual(['see', `  ${path}`, '  now']);
    const red = `\x1b[31m${'x'.repeat(95)}\x1b[0m abcd`;
    expect(wrapLine(red)).toEqual([red]);
  });

  it('wraps each line of a text', () => {
    expect(wrapText(`a\n${words(30)}`).split('\n')).toHaveLength(3);
  });
});

describe('paths from the project root', () => {
  it('writes a path inside the root from the root, and the root itself as .', () => {
    expect(fromProjectRoot('plugin /tmp/p/src/a.mjs: failed', '/tmp/p')).toBe('plugin src/a.mjs: failed');
    expect(fromProjectRoot('in /tmp/p: no config', '/tmp/p')).toBe('in .: no config');
    expect(fromProjectRoot('"/tmp/p/x.yml"', '/tmp/p/')).toBe('"x.yml"');
  });

  it('leaves a path that only starts like the root, or holds it further in, as it is', () => {
    expect(fromProjectRoot('/tmp/pq/a.mjs', '/tmp/p')).toBe('/tmp/pq/a.mjs');
    expect(fromProjectRoot('/mnt/tmp/p/a.mjs', '/tmp/p')).toBe('/mnt/tmp/p/a.mjs');
  });
});
