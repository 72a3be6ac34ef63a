import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtModule } from '../seam/package-root.js';
import { pyodideInstalled, pyodidePackageDir } from './versions.js';

/**
 * In a fresh Node process: preloads the script of the release at `packageDir`, then says what is defined and how it was
 * loaded.
 */
function preload(packageDir: string): string[] {
  const body = [
    `const { preloadModuleScript } = await import(${JSON.stringify(pathToFileURL(builtModule('runtimes/pyodide/module-script.ts')).href)});`,
    `preloadModuleScript(${JSON.stringify(packageDir)});`,
    `const required = Object.keys((await import('node:module')).createRequire(import.meta.url).cache).filter((file) => file.endsWith('pyodide.asm.js')).length;`,
    `console.log(typeof globalThis._createPyodideModule, required);`,
  ].join('\n');
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', body], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim().split(' ');
}

describe("the Pyodide worker's Emscripten script", () => {
  it('is loaded through require before Pyodide would import it, which then boots from the module it defined', () => {
    expect(preload(pyodidePackageDir('3.13'))).toEqual(['function', '1']);
  });

  it.skipIf(!pyodideInstalled('3.14'))('is left to Pyodide in a release that ships it as an ES module', () => {
    expect(preload(pyodidePackageDir('3.14'))).toEqual(['undefined', '0']);
  });
});
