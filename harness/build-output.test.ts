import { spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot, sourceAsset } from '../runtimes/seam/package-root.js';

/**
 * Every file the build compiles into dist/: its own sources and whatever they import, as tsc resolves them
 * (a test helper imported by a shipped module would be compiled even though tsconfig.build.json excludes it).
 */
function buildProgram(): string[] {
  const run = spawnSync(
    process.execPath,
    [sourceAsset('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--listFilesOnly'],
    {
      cwd: packageRoot(),
      encoding: 'utf8',
    },
  );
  expect(run.status, run.stdout + run.stderr).toBe(0);
  return run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((file) => relative(packageRoot(), file));
}

describe('what the build puts in dist/', () => {
  it('compiles no test, no test helper and nothing that imports fast-check', { timeout: 120_000 }, () => {
    const files = buildProgram();
    const own = files.filter((file) => !file.startsWith('node_modules/'));
    expect(own).toContain('harness/cli/main.ts');
    expect(own.filter((file) => /\.test\.ts$|(^|\/)test\//.test(file))).toEqual([]);
    expect(files.filter((file) => file.startsWith('node_modules/fast-check/'))).toEqual([]);
  });
});
