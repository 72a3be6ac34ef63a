import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sourceAsset } from '../../../runtimes/seam/package-root.js';
import { parseProjectConfig } from '../../project/config.js';
import { loadScenarios } from '../../scenario/discover.js';
import { githubWorkflow } from '../../init/github-workflow.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-init-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const cli = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [sourceAsset('bin/concord.mjs'), ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
    env: { ...process.env, CI: '' },
  });

/** Every file below `root` with its text, so a second run can be compared byte for byte. */
async function tree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out[path.slice(root.length + 1)] = await readFile(path, 'utf8');
  }
  return out;
}

const PLUGIN = `import type { GatedServices } from 'concord/contract';

export default {
  name: 'inventory',
  inject: ['tools'],
  apply(ctx: Pick<GatedServices, 'tools'>) {
    ctx.tools.register({
      name: 'count_items',
      description: 'Counts the items in stock.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      async execute() {
        return { count: 3 };
      },
    });
  },
};
`;

describe('concord init', () => {
  it('explains itself with --help', () => {
    const help = cli(dir, 'init', '--help');
    expect(help.status).toBe(0);
    for (const flag of ['--plugin <ref>', '--root <dir>']) expect(help.stdout).toContain(flag);
    expect(help.stdout).toContain('No file that exists is ever overwritten');
  });

  it('in an empty folder writes the config, a scenario wired to the plugin and .gitignore, then prints the next steps', async () => {
    const run = cli(dir, 'init', '--plugin', './src/plugins/inventory.ts');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('wrote    concord.config.yml');
    expect(run.stdout).toContain('wrote    scenarios/inventory.yml');
    expect(run.stdout).toContain('wrote    .gitignore');
    expect(run.stdout).toContain('write src/plugins/inventory.ts: a cordis plugin');
    expect(run.stdout).toContain('npx concord gate --update=new');
    expect(run.stdout).toContain('CI=true npx concord gate');
    expect(run.stdout).toContain('npx concord review');
    expect(Object.keys(await tree(dir)).sort()).toEqual(['.gitignore', 'concord.config.yml', join('scenarios', 'inventory.yml')]);
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe('.concord/\n');
    expect(parseProjectConfig('concord.config.yml', await readFile(join(dir, 'concord.config.yml'), 'utf8'))).toEqual({ floor: '3.9' });

    // Valid as written; its plugin reference resolves (relative to the scenario file) once the plugin exists.
    await mkdir(join(dir, 'src', 'plugins'), { recursive: true });
    await writeFile(join(dir, 'src', 'plugins', 'inventory.ts'), PLUGIN);
    const [scenario] = await loadScenarios(join(dir, 'scenarios'), dir);
    expect(scenario!.composition.map((e) => [e.id, e.plugin])).toEqual([
      ['tools', 'concord/tools'],
      ['inventory', '../src/plugins/inventory.ts'],
      ['agent', 'concord/agent'],
    ]);
    expect(scenario!.composition[1]!.resolved!.file).toBe(join(dir, 'src', 'plugins', 'inventory.ts'));
  });

  it('is idempotent: a second run keeps every file, says so, and changes no byte', async () => {
    expect(cli(dir, 'init', '--plugin', './src/plugins/inventory.ts').status).toBe(0);
    const before = await tree(dir);
    const again = cli(dir, 'init', '--plugin', './src/plugins/inventory.ts');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('kept     concord.config.yml (it exists)');
    expect(again.stdout).toContain('kept     scenarios/inventory.yml (it exists)');
    expect(again.stdout).toContain('kept     .gitignore (it already ignores .concord/)');
    expect(again.stdout).not.toContain('wrote');
    expect(await tree(dir)).toEqual(before);
  });

  it('in an existing repository keeps its files and appends .concord/ to its .gitignore once', async () => {
    await writeFile(join(dir, '.gitignore'), 'node_modules\ndist');
    await writeFile(join(dir, 'concord.config.yml'), "floor: '3.11'\n");
    const run = cli(dir, 'init', '--plugin', '@team/backend/plugin');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('kept     concord.config.yml (it exists)');
    expect(run.stdout).toContain('appended .gitignore (added .concord/)');
    // A package plugin has no file to write: the next steps start with the scenario.
    expect(run.stdout).not.toContain('write ');
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe('node_modules\ndist\n.concord/\n');
    expect(await readFile(join(dir, 'concord.config.yml'), 'utf8')).toBe("floor: '3.11'\n");
    expect(await readFile(join(dir, 'scenarios', 'backend.yml'), 'utf8')).toContain('plugin: "@team/backend/plugin"');
    cli(dir, 'init', '--plugin', '@team/backend/plugin');
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe('node_modules\ndist\n.concord/\n');
  });

  it('takes --root, and finds the root above the working directory by its concord.config.yml', async () => {
    await mkdir(join(dir, 'backend', 'src'), { recursive: true });
    expect(cli(dir, 'init', '--root', 'backend', '--plugin', './src/tools.ts').status).toBe(0);
    expect(existsSync(join(dir, 'backend', 'scenarios', 'tools.yml'))).toBe(true);
    expect(existsSync(join(dir, 'scenarios'))).toBe(false);
    const nested = cli(join(dir, 'backend', 'src'), 'init', '--plugin', './src/tools.ts');
    expect(nested.stdout).toContain(`concord init in ${join(dir, 'backend')}`);
    expect(existsSync(join(dir, 'backend', 'src', 'scenarios'))).toBe(false);
  });

  it('with --ci github writes the sharded workflow once, and keeps it on a second run', () => {
    const first = cli(dir, 'init', '--ci', 'github', '--shards', '2');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('wrote    .github/workflows/concord.yml');
    const written = readFileSync(join(dir, '.github/workflows/concord.yml'), 'utf8');
    expect(written).toBe(githubWorkflow(2));
    const second = cli(dir, 'init', '--ci', 'github', '--shards', '5');
    expect(second.stdout).toContain('kept     .github/workflows/concord.yml (it exists)');
    expect(readFileSync(join(dir, '.github/workflows/concord.yml'), 'utf8')).toBe(written);
    expect(cli(dir, 'init', '--ci', 'gitlab').status).toBe(2);
    expect(cli(dir, 'init', '--ci', 'github', '--shards', '0').status).toBe(2);
  });

  it('refuses a plugin outside the root or an absolute path with exit 2 and writes nothing', async () => {
    for (const plugin of ['../elsewhere/tools.ts', './src/../../tools.ts', '/abs/tools.ts', 'no spaces allowed']) {
      const run = cli(dir, 'init', '--plugin', plugin);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`concord init: --plugin ${plugin}: `);
      expect(run.stderr).toContain('hint: ');
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it('writes a scenario the gate passes with --update=new once the plugin exists', { timeout: 180_000 }, async () => {
    expect(cli(dir, 'init', '--plugin', './src/plugins/inventory.ts').status).toBe(0);
    await mkdir(join(dir, 'src', 'plugins'), { recursive: true });
    await writeFile(join(dir, 'src', 'plugins', 'inventory.ts'), PLUGIN);
    // The TypeScript worker only: the scenario's Python program is judged in the newcomer test.
    const gate = cli(join(dir, 'src'), 'gate', '--update=new', '--runtime', 'typescript');
    expect(gate.stdout.trimEnd().split('\n').at(-1)).toBe('gate: everything agrees');
    expect(gate.status).toBe(0);
    const sdk = await readFile(join(dir, 'snapshots', 'inventory', 'typescript', 'tools-sdk.ts'), 'utf8');
    expect(sdk).toContain('/** Counts the items in stock. */');
  });
});
