import { describe, expect, it } from 'vitest';
import { BaseNamer, MAX_BASE_LENGTH, pascalBase } from './names.js';

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

describe('BaseNamer', () => {
  it('numbers later tools whose base is taken, skipping bases claimed outright', () => {
    const namer = new BaseNamer();
    expect(['a-b', 'a_b', 'a b', 'AB2', 'ab'].map((name) => namer.claim(name))).toEqual(['AB', 'AB2', 'AB3', 'AB22', 'Ab']);
  });

  it('gives every tool of a large colliding set its own name', () => {
    const namer = new BaseNamer();
    const names = Array.from({ length: 2_000 }, (_, index) => namer.claim(index % 2 === 0 ? '検索' : `tool${index}`));
    expect(new Set(names).size).toBe(names.length);
  });
});
