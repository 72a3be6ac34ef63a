import { describe, expect, it } from 'vitest';
import { tagBlocks, tagsAsFences } from './tag-blocks.js';

describe('code between tags', () => {
  it('finds the innermost blocks, tags alone on their lines, attributes allowed', () => {
    const text = [
      '<catalog>',
      '<module name="tools.notes">',
      'def add_note(text: str) -> dict: ...',
      '</module>',
      '</catalog>',
      'Inline <code>x = 1</code> is prose.',
      '<code>',
      'never closed',
    ].join('\n');
    expect(tagBlocks(text)).toEqual([
      { tag: 'module', openLine: 2, closeLine: 4, body: 'def add_note(text: str) -> dict: ...\n' },
    ]);
  });

  it('fences a block that only declares, on the same lines, and leaves example programs as prose', () => {
    const text = '<code>\nprint(forecast("Oslo"))\n</code>\n<code>\ndef forecast(city: str) -> str: ...\n</code>\n';
    expect(tagsAsFences(text)).toBe(
      '<code>\nprint(forecast("Oslo"))\n</code>\n```python\ndef forecast(city: str) -> str: ...\n```\n',
    );
    const typescript = '<tools>\ndeclare const tools: { a(): Promise<void> };\n</tools>';
    expect(tagsAsFences(typescript)).toBe('```typescript\ndeclare const tools: { a(): Promise<void> };\n```');
    expect(tagsAsFences('<code>\nprint(1)\n</code>\n')).toBeUndefined();
  });

  it("ends a block at the code agent's stop word, and drops the stop word after a closing fence", () => {
    expect(tagsAsFences('<code>\ndef f() -> None: ...\n<end_code>\n')).toBe('```python\ndef f() -> None: ...\n```\n');
    expect(tagsAsFences('```py\nf()\n```<end_code>\nThen stop.\n')).toBe('```py\nf()\n```\nThen stop.\n');
    // A stop word anywhere else is prose.
    expect(tagsAsFences('End with ```<end_code>.\n')).toBeUndefined();
  });
});
