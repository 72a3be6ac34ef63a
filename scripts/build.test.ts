import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceAsset } from '../runtimes/seam/package-root.js';

// scripts/build.mjs on a checkout of its own: one source, the same compiler, a schema writer that counts its runs.
let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-build-'));
  await mkdir(join(root, 'scripts'));
  await mkdir(join(root, 'harness'));
  for (const dir of ['contract', 'codemode', 'runtimes', 'scenarios']) await mkdir(join(root, dir));
  await copyFile(sourceAsset('scripts/build.mjs'), join(root, 'scripts/build.mjs'));
  await writeFile(
    join(root, 'scripts/write-scenario-schema.mjs'),
    "import { appendFileSync } from 'node:fs';\nappendFileSync(new URL('../schema-runs', import.meta.url), 'x');\n",
  );
  // No type check: what is under test is when the script compiles, not the compiler (a syntax error still fails it).
  await writeFile(
    join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        target: 'es2022',
        rootDir: '.',
        outDir: 'dist',
        noCheck: true,
        lib: ['es2022'],
        types: [],
      },
    }),
  );
  await writeFile(
    join(root, 'tsconfig.build.json'),
    JSON.stringify({ extends: './tsconfig.json', include: ['harness'] }),
  );
  await writeFile(join(root, 'package-lock.json'), '{}\n');
  await writeFile(join(root, 'harness/a.ts'), 'export const a: number = 1;\n');
  await mkdir(join(root, 'node_modules'));
  await symlink(sourceAsset('node_modules/typescript'), join(root, 'node_modules/typescript'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const build = (...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), ...args], { cwd: root, encoding: 'utf8' });
const schemaRuns = async () => (await readFile(join(root, 'schema-runs'), 'utf8').catch(() => '')).length;

describe('npm run build', () => {
  it('builds, then leaves a build of the same inputs alone, and builds again when a source or --force says so', async () => {
    expect(build().status).toBe(0);
    expect(await readFile(join(root, 'dist/harness/a.js'), 'utf8')).toContain('a = 1');
    expect(await schemaRuns()).toBe(1);
    const firstBuilt = (await stat(join(root, 'dist/harness/a.js'))).mtimeMs;

    const again = build();
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('dist/ is a build of these sources already');
    expect((await stat(join(root, 'dist/harness/a.js'))).mtimeMs).toBe(firstBuilt);
    expect(await schemaRuns()).toBe(1);

    // A test file is not an input of the build; a source is.
    await writeFile(join(root, 'harness/a.test.ts'), 'export {};\n');
    expect(build().stdout).toContain('already');
    await writeFile(join(root, 'harness/a.ts'), 'export const a: number = 2;\n');
    expect(build().status).toBe(0);
    expect(await readFile(join(root, 'dist/harness/a.js'), 'utf8')).toContain('a = 2');
    expect(await schemaRuns()).toBe(2);

    expect(build('--force').status).toBe(0);
    expect(await schemaRuns()).toBe(3);
  });

  it('keeps no mark of a build that failed, so the next run builds again', async () => {
    await writeFile(join(root, 'harness/a.ts'), 'export const a = (;\n');
    const failed = build();
    expect(failed.status).not.toBe(0);
    expect(failed.stdout + failed.stderr).toContain('a.ts');
    expect(existsSync(join(root, 'dist/.inputs'))).toBe(false);
  });

  it('refuses an argument it does not know with exit 2 and says how it is used', () => {
    const wrong = build('--fast');
    expect(wrong.status).toBe(2);
    expect(wrong.stdout).toContain('usage: npm run build');
    expect(build('--help').status).toBe(0);
  });
});
