import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sourceAsset } from '../../../runtimes/seam/package-root.js';
import { writeStockProject } from '../../project/stock-project.js';
import { writePending } from '../../snapshot/pending.js';
import { concordIn } from '../../test/concord-cli.js';
import { keepCache, seedCache } from '../../test/warm-cache.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-everyday-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const cli = concordIn(() => dir, 120_000);

describe('what users expect of a command line', () => {
  it('concord --version prints the package version', () => {
    const { version } = JSON.parse(readFileSync(sourceAsset('package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const run = cli({}, flag);
      expect(run.status).toBe(0);
      expect(run.stdout.trim()).toBe(version);
    }
  });

  it('gate -u is --update=all: it rewrites a changed snapshot', { timeout: 180_000 }, async () => {
    // About the update modes, not plugin loading: the plugin is JavaScript, so no gate here loads tsx.
    await writeStockProject(dir, 'stock', { javascript: true });
    await seedCache(dir);
    expect(cli({}, 'gate', '--update=new').status).toBe(0);
    await keepCache(dir);
    const sdk = join(dir, 'snapshots', 'stock', 'typescript', 'tools-sdk.ts');
    const written = await readFile(sdk, 'utf8');
    await writeFile(sdk, written.replace('Counts the items', 'Tallies the items'));
    // --update=new leaves a changed file alone; -u rewrites it.
    expect(cli({}, 'gate', '--update=new').status).toBe(1);
    const update = cli({}, 'gate', '-u');
    expect(update.stdout.trimEnd().split('\n').at(-1), update.stdout + update.stderr).toBe('gate: everything agrees');
    expect(update.status).toBe(0);
    expect(await readFile(sdk, 'utf8')).toBe(written);
  });

  it.each([
    [
      'a syntax error in a .ts plugin',
      'export default {\n  name: "stock",\n  apply() {\n    const a = ;\n  },\n};\n',
      'plugins/stock.ts:4:15:',
      'Unexpected ";"',
      '    const a = ;',
    ],
    [
      'a syntax error in a .mjs plugin',
      'export default {\n  name: "stock",\n  apply() {\n    const a = ;\n  },\n};\n',
      'plugins/stock.mjs:4:15:',
      "SyntaxError: Unexpected token ';'",
      '    const a = ;',
    ],
    [
      'a throw while the plugin module runs',
      'const shelf = null;\n\nexport default shelf.plugin;\n',
      'plugins/stock.mjs:3:22:',
      "TypeError: Cannot read properties of null (reading 'plugin')",
      'export default shelf.plugin;',
    ],
  ])(
    'a plugin that cannot be imported (%s) stops the gate with exit 2 at file:line:column, without a stack',
    { timeout: 120_000 },
    async (_, source, place, problem, line) => {
      const file = place.split(':')[0]!;
      await writeStockProject(dir, 'stock', { javascript: file.endsWith('.mjs') });
      await writeFile(join(dir, 'scenarios', file), source);
      const gate = cli({}, 'gate');
      expect(gate.status, gate.stdout + gate.stderr).toBe(2);
      expect(gate.stderr).toContain(`concord gate: ${join(dir, 'scenarios', place)} the plugin of entry "stock" (`);
      expect(gate.stderr).toContain(problem);
      expect(gate.stderr).toContain(line);
      expect(gate.stdout + gate.stderr).not.toMatch(/INACTIVE_EFFECT|CordisError|\n +at /);
      expect(gate.stdout).toBe('');
      const debug = cli({}, 'gate', '--debug');
      expect(debug.status).toBe(2);
      expect(debug.stderr).toMatch(/\n +at /);
    },
  );

  it('with CI set, review names the command that works on the developer machine: review --from the artifact', async () => {
    await writePending(join(dir, '.concord', 'pending'), 'r1', [
      { path: 'stock/typescript/tools-sdk.ts', action: 'write', status: 'new', base: null, proposed: 'x\n' },
    ]);
    for (const args of [['review'], ['review', '--from', 'concord-pending']]) {
      const review = cli({ CI: 'true' }, ...args);
      expect(review.status).toBe(2);
      expect(review.stderr).toContain('run `concord review --from concord-pending` there');
      expect(review.stderr).not.toContain('copy');
    }
  });
});
