import { describe, expect, it } from 'vitest';
import { parsePython, RECOVERY_LIMIT } from './parse.js';

/** Whether the tree holds a node the grammar could not place. */
const broken = (code: string): boolean => {
  let error = false;
  parsePython(code).iterate({ enter: (node) => void (node.type.isError && (error = true)) });
  return error;
};

describe('parsePython', () => {
  it('reads a valid module whole, and hands the readers of one text one tree', () => {
    const code = `class tools:\n    def ping(self) -> int: ...\n${'# padding\n'.repeat(RECOVERY_LIMIT / 10)}`;
    expect(parsePython(code).length).toBe(code.length);
    expect(broken(code)).toBe(false);
    expect(parsePython(code)).toBe(parsePython(`${code}`));
  });

  it('recovers from errors over at most RECOVERY_LIMIT characters (limit − 1, limit, limit + 1)', () => {
    // Valid lines, then one token that does not fit: recovery has little to do, the length is what counts.
    const text = (length: number) => {
      const head = 'class tools:\n    def ping(self) -> int: ...\n';
      return `${head}${'#'.repeat(length - head.length - 3)}\n)\n`;
    };
    for (const length of [RECOVERY_LIMIT - 1, RECOVERY_LIMIT]) {
      expect(text(length)).toHaveLength(length);
      expect(parsePython(text(length)).length).toBe(length);
      expect(broken(text(length))).toBe(true);
    }
    expect(parsePython(text(RECOVERY_LIMIT + 1)).length).toBe(RECOVERY_LIMIT);
    // What stands before the cut is still read.
    expect(parsePython(text(RECOVERY_LIMIT + 1)).topNode.firstChild?.name).toBe('ClassDefinition');
  });

  it('reads an annotation nested 100,000 deep without throwing, and at most RECOVERY_LIMIT of it', () => {
    const deep = `x: ${'['.repeat(100_000)}int${']'.repeat(100_000)}\n`;
    expect(parsePython(deep).length).toBeLessThanOrEqual(RECOVERY_LIMIT);
  });
});
