import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { Host } from '../../test/host-requirements.js';
import { stockScenario, writeStockProject } from '../project/stock-project.js';
import { seedCache } from '../test/warm-cache.js';

let root = '';
afterAll(() => rm(root, { recursive: true, force: true }));

(await Host.with('docker')).describe('containers without a reaper', () => {
  // A user's shell does not set TESTCONTAINERS_RYUK_DISABLED. The loader restores the environment it found at
  // import on every boot, so the stub-check containers, started after a pair's app booted, must still see it.
  it('compile the stubs in the runtime images when the variable is not set in the environment', {
    timeout: 300_000,
  }, async () => {
    root = await mkdtemp(join(tmpdir(), 'concord-reaper-'));
    await writeStockProject(root, 'stock', { javascript: true });
    await writeFile(join(root, 'scenarios', 'stock.yml'), stockScenario('stock', '[python]', './plugins/stock.mjs'));
    // Warm but for the stub verdicts: the runtime images must compile the stubs here, the rest (pyright, token
    // counts, the Pyodide memory snapshot) is no part of what this test is about.
    await seedCache(root, ['compile', 'import']);
    const env: NodeJS.ProcessEnv = { ...process.env, CI: '', NO_COLOR: '1' };
    delete env.TESTCONTAINERS_RYUK_DISABLED;
    const result = spawnSync(
      process.execPath,
      [sourceAsset('bin/concord.mjs'), 'gate', '--root', root, '--update=new'],
      { encoding: 'utf8', env, timeout: 280_000 },
    );
    expect(result.stdout).not.toContain('testcontainers/ryuk');
    expect(result.stdout).not.toMatch(/could not compile tools-sdk\.py/);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const report = spawnSync('cat', [join(root, '.concord', 'report.md')], { encoding: 'utf8' }).stdout;
    expect(report).toMatch(/container 3\.9/);
  });
});
