import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const MAX_LINES = 80;

/**
 * The functions allowed to be longer, each for the reason its own comment gives: the conformance suite shares one
 * closure among its tests, the realm bootstrap is serialized into the realm it builds.
 */
const WHOLE_BY_DESIGN = new Set(['runtimes/seam/conformance.ts', 'runtimes/worker/realm-bootstrap.ts']);

/** Every function of the source files below `folders` (tests and test helpers aside) longer than `max` lines. */
function longFunctions(folders: readonly string[], max: number): string[] {
  const found: string[] = [];
  const pending = folders.map((folder) => join(ROOT, folder));
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test' && entry.name !== 'node_modules') pending.push(path);
        continue;
      }
      if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts') || entry.name.endsWith('.d.ts')) continue;
      const file = relative(ROOT, path);
      if (WHOLE_BY_DESIGN.has(file)) continue;
      const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body !== undefined) {
          const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
          const last = source.getLineAndCharacterOfPosition(node.end).line;
          if (last - first + 1 > max) found.push(`${file}:${first + 1} (${last - first + 1} lines)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return found;
}

describe('functions', () => {
  it(`are at most ${MAX_LINES} lines in harness/, codemode/ and runtimes/, but the ones whole by design`, () => {
    expect(longFunctions(['harness', 'codemode', 'runtimes'], MAX_LINES)).toEqual([]);
  });
});
