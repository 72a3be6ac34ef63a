import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtModule } from '../runtimes/seam/package-root.js';

/** Runs `body` (ES module code) in a fresh Node process and returns what it printed. */
function fresh(body: string): string {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', body], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim();
}

const url = (source: string) => pathToFileURL(builtModule(source)).href;
const LOADED = `(await import('node:module')).createRequire(import.meta.url).cache`;
const compilerLoaded = `Object.keys(${LOADED}).some((file) => file.endsWith('/typescript/lib/typescript.js'))`;

describe('the TypeScript compiler', () => {
  it('is not loaded by importing the gate or the TypeScript runtime, only by the first thing that needs it', () => {
    const printed = fresh(
      [
        `await import(${JSON.stringify(url('harness/gate/gate.ts'))});`,
        `await import(${JSON.stringify(url('runtimes/worker/plugin.ts'))});`,
        `console.log(${compilerLoaded});`,
        `const { typescriptSdkNames } = await import(${JSON.stringify(url('harness/languages/typescript/names.ts'))});`,
        `const { TypeScriptCompiler } = await import(${JSON.stringify(url('harness/languages/typescript/compiler.ts'))});`,
        `console.log(${compilerLoaded});`,
        `const compiler = new TypeScriptCompiler();`,
        `console.log(typescriptSdkNames(compiler, 'declare const tools: { ping(): Promise<void> };').declared.map((d) => d.name).join());`,
        `console.log(${compilerLoaded});`,
      ].join('\n'),
    );
    // Importing the checks loads nothing either: the compiler is loaded when the session's one is made.
    expect(printed.split('\n')).toEqual(['false', 'false', 'tools', 'true']);
  });
});
