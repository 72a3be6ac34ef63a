import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Every `.ts` file below `folder` with the repository-relative target of each relative import it makes. */
function importsBelow(folder: string, options: { tests: boolean }): Array<{ file: string; target: string }> {
  const found: Array<{ file: string; target: string }> = [];
  const pending = [join(ROOT, folder)];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.name.endsWith('.ts') && (options.tests || !/\.test\.ts$|\/test\//.test(path))) {
        const source = readFileSync(path, 'utf8');
        for (const match of source.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
          found.push({ file: relative(ROOT, path), target: relative(ROOT, resolve(dirname(path), match[1]!)) });
        }
      }
    }
  }
  return found;
}

/** What a foreign backend offers the gate: the public entry point and the plugins. */
const CODEMODE_PUBLIC = ['codemode/index.js', 'codemode/tools/plugin.js', 'codemode/agent/plugin.js'];

describe('imports point one way', () => {
  it('the harness uses the reference backend only through its public entry points', () => {
    const internal = importsBelow('harness', { tests: false }).filter(({ target }) => target.startsWith('codemode/') && !CODEMODE_PUBLIC.includes(target));
    expect(internal.map(({ file, target }) => `${file} imports ${target}`)).toEqual([]);
  });

  it('codemode knows only the runtime seam and the contract', () => {
    const outside = importsBelow('codemode', { tests: false }).filter(({ target }) => !/^(codemode|contract|runtimes\/seam)\//.test(target));
    expect(outside.map(({ file, target }) => `${file} imports ${target}`)).toEqual([]);
  });

  it('runtimes know only the seam and themselves, and nothing imports the harness', () => {
    const runtimes = importsBelow('runtimes', { tests: false }).filter(({ file, target }) => {
      const own = file.split('/').slice(0, 2).join('/');
      return !target.startsWith('runtimes/seam/') && !target.startsWith(own + '/');
    });
    const intoHarness = [...importsBelow('codemode', { tests: true }), ...importsBelow('runtimes', { tests: true }), ...importsBelow('contract', { tests: true })].filter(({ target }) => target.startsWith('harness/'));
    expect([...runtimes, ...intoHarness].map(({ file, target }) => `${file} imports ${target}`)).toEqual([]);
  });
});
