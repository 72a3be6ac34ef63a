import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sourceAsset } from '../runtimes/seam/package-root.js';

const suites = readdirSync(sourceAsset('scripts/bench'))
  .filter((file) => file.endsWith('.mjs'))
  .map((file) => file.slice(0, -'.mjs'.length))
  .sort();

function bench(...args: string[]) {
  const result = spawnSync(process.execPath, [sourceAsset('scripts/bench.mjs'), ...args], { encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run bench', () => {
  it('finds its suites as the files in scripts/bench/', () => {
    expect(suites).toContain('sdk');
    const { code, stdout } = bench('--help');
    expect(code).toBe(0);
    expect(stdout).toContain(`suites: ${suites.join(', ')}`);
  });

  it('refuses an unknown suite, naming the known ones, before running anything', () => {
    const { code, stdout, stderr } = bench('sdk', 'nope');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`bench: unknown suite "nope" (known: ${suites.join(', ')})\n`);
  });
});
