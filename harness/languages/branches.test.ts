import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './packs.js';

const HARNESS = resolve(import.meta.dirname, '..');
const isTest = (path: string) => /\.test\.ts$|\/test\//.test(path);

/** Every source file of `harness/` but the tests and the language packs themselves, repository-relative. */
function sourcesOutsidePacks(): string[] {
  const found: string[] = [];
  const pending = [HARNESS];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path !== join(HARNESS, 'languages')) pending.push(path);
      } else if (entry.name.endsWith('.ts') && !isTest(path)) found.push(path);
    }
  }
  return found;
}

/** A comparison with a language's name, or a `case` of it: a branch on the language that belongs in its pack. */
function branchPattern(languages: readonly string[]): RegExp {
  const name = `['"\`](?:${languages.join('|')})['"\`]`;
  return new RegExp(String.raw`[=!]==?\s*${name}|${name}\s*[=!]==?|\bcase\s+${name}\s*:`);
}

describe('what is language-specific lives in the language packs', () => {
  it('no file of harness/ outside harness/languages/ branches on a language by name', () => {
    const pattern = branchPattern(LANGUAGES);
    const branches = sourcesOutsidePacks().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          pattern.test(line) ? [`${relative(resolve(HARNESS, '..'), file)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(branches).toEqual([]);
  });

  it('finds the branches it forbids', () => {
    const pattern = branchPattern(LANGUAGES);
    for (const line of [
      "if (language === 'python') {",
      "return 'typescript' !== runtime.language ? a : b;",
      "  case 'python':",
      'const tsc = language == "typescript";',
    ])
      expect(pattern.test(line), line).toBe(true);
    for (const line of ["const file = SDK_FILE['python'];", "probeTarget(s, 'python', unavailable)"])
      expect(pattern.test(line), line).toBe(false);
  });
});
