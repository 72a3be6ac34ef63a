import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Loads the Emscripten script of a Pyodide release that ships it as CommonJS (`pyodide.asm.js`, which
 * defines `_createPyodideModule`; Pyodide loads the script itself only when that is not defined yet) with
 * require, before Pyodide boots. Pyodide would import it as an ES module, and Node then also scans its
 * megabyte of code for named exports and guesses its format: about a quarter of a second of every boot. The
 * script runs the same either way. A release whose script is an ES module (`pyodide.asm.mjs`) is left to
 * Pyodide. Imported by the worker process: node: builtins only.
 */
export function preloadModuleScript(packageDir: string): void {
  const script = join(packageDir, 'pyodide.asm.js');
  if (existsSync(script)) createRequire(import.meta.url)(script);
}
