import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STOCK_PLUGIN_JS, writeStockProject } from '../project/stock-project.js';
import { concordIn } from '../test/concord-cli.js';
import { keepCache, seedCache } from '../test/warm-cache.js';

/** The stock plugin with a second tool that the stock scenario's program never calls. */
const WITH_RESTOCK = STOCK_PLUGIN_JS.replace(
  'export default',
  `const restock = {
  name: 'restock',
  description: 'Orders more of an item.',
  parameters: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] },
  execute: async () => ({ ordered: true }),
};
export default`,
).replace('ctx.tools.register(count);', 'ctx.tools.register(count); ctx.tools.register(restock);');

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-coverage-'));
  // About coverage, not plugin loading: the plugin is JavaScript, so no gate here loads tsx.
  await writeStockProject(dir, 'stock', { javascript: true });
  await writeFile(join(dir, 'scenarios', 'plugins', 'stock.mjs'), WITH_RESTOCK);
  // Not about a cold start: the gates start from the verdicts (the probe's) earlier gates of the run computed,
  // and leave theirs.
  await seedCache(dir);
});
afterAll(async () => {
  await keepCache(dir);
  await rm(dir, { recursive: true, force: true });
});

const cli = concordIn(() => dir, 240_000);

describe('tool coverage', () => {
  it('lists a registered tool no program called as a warning in the terminal, report.md, report.html and the step summary; coverage.uncalled: error fails the gate', {
    timeout: 300_000,
  }, async () => {
    const summary = join(dir, 'step-summary.md');
    const warned = cli({ GITHUB_STEP_SUMMARY: summary }, 'gate', '--update=new');
    expect(warned.status, warned.stdout + warned.stderr).toBe(0);
    const sentence = "typescript: 1 registered tool(s) no scenario's program called (of 1 scenario(s)): restock";
    expect(warned.stdout).toContain(`warning tool-coverage: ${sentence}`);
    expect(warned.stdout).toContain('gate: everything agrees');
    expect(await readFile(join(dir, '.concord', 'report.md'), 'utf8')).toContain(
      `## Tool coverage\n\n- **warning** ${sentence}`,
    );
    expect(await readFile(join(dir, '.concord', 'report.html'), 'utf8')).toContain(
      `<h2>Tool coverage</h2><ul class="findings"><li><strong>warning</strong> typescript: 1 registered tool(s) no scenario&#39;s program called`,
    );
    expect(await readFile(summary, 'utf8')).toContain(`### Tool coverage\n\n- **warning** ${sentence}`);

    await writeFile(join(dir, 'concord.config.yml'), 'coverage:\n  uncalled: error\n');
    const failed = cli({}, 'gate');
    expect(failed.status, failed.stdout + failed.stderr).toBe(1);
    expect(failed.stdout).toContain(`error tool-coverage: ${sentence}`);
    expect(failed.stdout.trimEnd().split('\n').at(-1)).toBe('gate: FAILED');

    await writeFile(join(dir, 'concord.config.yml'), 'coverage:\n  uncalled: fatal\n');
    const bad = cli({}, 'gate');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${join(dir, 'concord.config.yml')}:2:13`);
    expect(bad.stderr).toContain('coverage.uncalled must be one of warn, error; found "fatal"');
  });
});
