import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('the SDK bench baseline', () => {
  it('says why there is none when the commit is not in the checkout, building nothing', async () => {
    const { baselineRenderers } = await import('./bench/support/baseline.mjs');
    const missing = 'f'.repeat(40);
    expect(await baselineRenderers(missing)).toEqual({
      reason: `commit ${missing.slice(0, 12)} is not in this checkout (git history is needed)`,
    });
  });

  it('builds the renderers of a commit in the checkout into a folder it removes', { timeout: 60_000 }, async () => {
    const { baselineRenderers } = await import('./bench/support/baseline.mjs');
    const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: sourceAsset('.'), encoding: 'utf8' }).stdout.trim();
    const baseline = await baselineRenderers(head);
    const tool = { name: 'ping', description: 'Answers.', parameters: { type: 'object' } };
    expect(baseline.renderTypeScriptSdk([tool])).toContain('ping(args: Record<string, unknown>)');
    expect(baseline.renderPythonSdk([tool])).toContain('async def ping(self, args: dict[str, Any]) -> Any:');
    expect(existsSync(baseline.folder)).toBe(true);
    baseline.dispose();
    expect(existsSync(baseline.folder)).toBe(false);
  });

  it('leaves no build folder behind when Ctrl-C stops the bench', { timeout: 60_000 }, async () => {
    const temp = mkdtempSync(join(tmpdir(), 'concord-bench-test-'));
    try {
      const child = spawn(process.execPath, [sourceAsset('scripts/bench.mjs'), 'sdk'], {
        env: { ...process.env, TMPDIR: temp },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          output += chunk;
          // The baseline is built and rendering has begun: its folder exists now.
          if (output.includes('faster')) resolve();
        });
        child.once('exit', () => reject(new Error(`the bench ended before it rendered: ${output}`)));
      });
      expect(readdirSync(temp).filter((name) => name.startsWith('concord-bench-baseline-'))).toHaveLength(1);
      const code = await new Promise<number | null>((resolve) => {
        child.once('exit', (exitCode) => resolve(exitCode));
        child.kill('SIGINT');
      });
      expect(code).toBe(130);
      expect(readdirSync(temp)).toEqual([]);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
