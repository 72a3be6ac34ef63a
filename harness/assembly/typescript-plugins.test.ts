import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtModule } from '../../runtimes/seam/package-root.js';

// Run from dist/ in a node of its own: under vitest, every import of the source goes through vite, not Node's loader.
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-ts-plugins-'));
  await mkdir(join(dir, 'esm'));
  await writeFile(join(dir, 'esm', 'package.json'), '{ "type": "module" }\n');
  await writeFile(join(dir, 'esm', 'helper.ts'), 'export const items: number = 3;\n');
  await writeFile(
    join(dir, 'esm', 'plugin.ts'),
    "import { items } from './helper.js';\nconst g = globalThis as { runs?: number };\ng.runs = (g.runs ?? 0) + 1;\nexport default { name: 'esm', items };\n",
  );
  await mkdir(join(dir, 'cjs'));
  await writeFile(join(dir, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
  await writeFile(join(dir, 'cjs', 'helper.ts'), 'export const items: number = 4;\n');
  await writeFile(
    join(dir, 'cjs', 'plugin.ts'),
    "import { items } from './helper';\nexport default { name: 'cjs', items };\n",
  );
  await writeFile(join(dir, 'outside.ts'), 'export const outside: string = "compiled";\n');
  // A folder whose name a URL would read as a fragment and an escape.
  await mkdir(join(dir, 'c#%41'));
  await writeFile(join(dir, 'c#%41', 'plugin.ts'), "export default { name: 'ts' };\n");
  await writeFile(join(dir, 'c#%41', 'plugin.mjs'), "export default { name: 'mjs' };\n");
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `body` as an ES module with `importPluginModule` in scope; what it prints, or its error. */
function script(body: string): { status: number | null; stdout: string; stderr: string } {
  const source = `const { importPluginModule } = await import(${JSON.stringify(builtModule('harness/assembly/typescript-plugins.ts'))});\nconst at = (file) => ${JSON.stringify(dir)} + '/' + file;\n${body}`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8', timeout: 30_000 });
}

describe('a TypeScript plugin', () => {
  it('imports with no build step, ESM or CommonJS as its package.json says, with the .ts modules it imports', () => {
    const ran = script(`
      const esm = await importPluginModule(at('esm/plugin.ts'), 'file:///');
      const cjs = await importPluginModule(at('cjs/plugin.ts'), 'file:///');
      // Node's own interop: a CommonJS module's exports are the default export of the ES module view of it.
      console.log(JSON.stringify([esm.default, cjs.default.default]));
    `);
    expect(ran.stderr).toBe('');
    expect(JSON.parse(ran.stdout)).toEqual([
      { name: 'esm', items: 3 },
      { name: 'cjs', items: 4 },
    ]);
  });

  it('imports from a folder named with a # and a %, .ts or not', () => {
    const ran = script(`
      const ts = await importPluginModule(at('c#%41/plugin.ts'), 'file:///');
      const mjs = await importPluginModule(at('c#%41/plugin.mjs'), 'file:///');
      console.log(JSON.stringify([ts.default.default, mjs.default]));
    `);
    expect(ran.stderr).toBe('');
    expect(JSON.parse(ran.stdout)).toEqual([{ name: 'ts' }, { name: 'mjs' }]);
  });

  it('is one module however often it is imported: the check before boot and the loader share it', () => {
    const ran = script(`
      const first = await importPluginModule(at('esm/plugin.ts'), 'file:///');
      const second = await importPluginModule(at('esm/plugin.ts'), import.meta.url);
      console.log(first === second, globalThis.runs);
    `);
    expect(ran.stdout.trim()).toBe('true 1');
  });

  it('compiles only the plugin and what it imports: a .ts file imported by anything else is not compiled', () => {
    const ran = script(`
      await importPluginModule(at('esm/plugin.ts'), 'file:///');
      try {
        await import(at('outside.ts'));
        console.log('compiled');
      } catch (error) {
        console.log(error.code);
      }
    `);
    expect(ran.stderr).toBe('');
    expect(ran.stdout.trim()).toBe('ERR_UNKNOWN_FILE_EXTENSION');
  });
});
