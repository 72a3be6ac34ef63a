import { describe, expect, it } from 'vitest';
import { MAX_BASE_LENGTH, pascalBase, toolBases } from './names.js';

describe('pascalBase', () => {
  it('joins words in PascalCase and keeps inner capitals', () => {
    expect(pascalBase('search_docs')).toBe('SearchDocs');
    expect(pascalBase('search-docs')).toBe('SearchDocs');
    expect(pascalBase('getHTTPPage')).toBe('GetHTTPPage');
    expect(pascalBase('  a..b  ')).toBe('AB');
  });

  it('strips accents, drops other non-ASCII characters and prefixes names that cannot start a type', () => {
    expect(pascalBase('café_order')).toBe('CafeOrder');
    expect(pascalBase('cafe\u0301')).toBe('Cafe');
    expect(pascalBase('検索')).toBe('Tool');
    expect(pascalBase('')).toBe('Tool');
    expect(pascalBase('3d-render')).toBe('Tool3dRender');
  });

  it('caps the base length', () => {
    expect(pascalBase('x'.repeat(500))).toHaveLength(MAX_BASE_LENGTH);
  });
});

describe('toolBases', () => {
  it('keeps a base one tool derives and gives colliding tools a suffix from their own names', () => {
    const bases = toolBases(['a-b', 'a_b', 'a b', 'AB2', 'ab']);
    expect(bases.slice(3)).toEqual(['AB2', 'Ab']);
    expect(bases.slice(0, 3).every((base) => /^AB_[0-9a-f]{6}$/.test(base))).toBe(true);
    expect(new Set(bases).size).toBe(5);
    // Another tool set around a-b: its colliding base keeps its suffix, whatever sorts before it.
    expect(toolBases(['0', 'a-b', 'a.b'])[1]).toBe(bases[0]);
  });

  it('gives every tool of a large colliding set its own name', () => {
    const names = toolBases(Array.from({ length: 2_000 }, (_, index) => (index % 2 === 0 ? '検索' : `tool${index}`)));
    expect(new Set(names).size).toBe(names.length);
  });
});
