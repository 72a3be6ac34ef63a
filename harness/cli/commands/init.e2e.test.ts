import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sourceAsset } from '../../../runtimes/seam/package-root.js';
import { unavailableRuntimes } from '../../assembly/runtimes.js';
import { githubWorkflow } from '../../init/github-workflow.js';
import { SCENARIO_SCHEMA_REFERENCE, scaffoldProject } from '../../init/scaffold.js';
import { parseProjectConfig } from '../../project/config.js';
import { stockScenario, writeStockProject } from '../../project/stock-project.js';
import { RUNTIME_NAMES } from '../../runtime-names.js';
import { loadScenarios } from '../../scenario/discover.js';
import { keepCache, seedCache } from '../../test/warm-cache.js';
import { describeFailure } from '../fail.js';

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
    expect(Object.keys(await tree(dir)).sort()).toEqual([
      '.gitignore',
      'concord.config.yml',
      join('scenarios', 'inventory.yml'),
    ]);
    // Editors that speak the YAML language server check the scenario against the package's schema.
    expect((await readFile(join(dir, 'scenarios', 'inventory.yml'), 'utf8')).split('\n')[0]).toBe(
      `# yaml-language-server: $schema=${SCENARIO_SCHEMA_REFERENCE}`,
    );
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe('.concord/\n');
    // The runtimes written are those that run here; each left out is a comment saying why.
    const left = await unavailableRuntimes(RUNTIME_NAMES);
    const configText = await readFile(join(dir, 'concord.config.yml'), 'utf8');
    expect(parseProjectConfig('concord.config.yml', configText)).toEqual({
      floor: '3.9',
      runtimes: RUNTIME_NAMES.filter((name) => !left.has(name)),
    });
    for (const name of left.keys()) expect(configText).toMatch(new RegExp(`^# ${name} is left out: `, 'm'));

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
    expect(again.stdout).toContain('kept     scenarios/inventory.yml (it already gates ../src/plugins/inventory.ts)');
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
    // The plugin's entry cannot take the id of the registry entry beside it.
    expect(await readFile(join(dir, 'backend', 'scenarios', 'tools.yml'), 'utf8')).toContain(
      'id: tools-plugin\n    plugin: ../src/tools.ts',
    );
    expect(existsSync(join(dir, 'scenarios'))).toBe(false);
    const nested = cli(join(dir, 'backend', 'src'), 'init', '--plugin', './src/tools.ts');
    expect(nested.stdout).toContain(`concord init in ${join(dir, 'backend')}`);
    expect(existsSync(join(dir, 'backend', 'src', 'scenarios'))).toBe(false);
  });

  it('with --ci github writes one job by default, and --shards 1 is the same', () => {
    expect(cli(dir, 'init', '--ci', 'github').status).toBe(0);
    const written = readFileSync(join(dir, '.github/workflows/concord.yml'), 'utf8');
    expect(written).toBe(githubWorkflow({ shards: 1, pythons: ['3.9', '3.14'] }));
    const other = join(dir, 'other');
    mkdirSync(other);
    // The floor the config names is the one set up.
    writeFileSync(join(other, 'concord.config.yml'), "floor: '3.11'\n");
    expect(cli(other, 'init', '--ci', 'github', '--shards', '1').status).toBe(0);
    expect(readFileSync(join(other, '.github/workflows/concord.yml'), 'utf8')).toBe(
      githubWorkflow({ shards: 1, pythons: ['3.11', '3.14'] }),
    );
  });

  it('with --ci github --shards N writes the sharded workflow once, and keeps it on a second run', () => {
    const first = cli(dir, 'init', '--ci', 'github', '--shards', '2');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('wrote    .github/workflows/concord.yml');
    expect(existsSync(join(dir, 'scenarios'))).toBe(false);
    const written = readFileSync(join(dir, '.github/workflows/concord.yml'), 'utf8');
    expect(written).toBe(githubWorkflow({ shards: 2, pythons: ['3.9', '3.14'] }));
    const second = cli(dir, 'init', '--ci', 'github', '--shards', '5');
    expect(second.stdout).toContain('kept     .github/workflows/concord.yml (it exists)');
    expect(readFileSync(join(dir, '.github/workflows/concord.yml'), 'utf8')).toBe(written);
    expect(cli(dir, 'init', '--ci', 'gitlab').status).toBe(2);
    expect(cli(dir, 'init', '--ci', 'github', '--shards', '0').status).toBe(2);
  });

  it('refuses a plugin outside the root or an absolute path with exit 2 and writes nothing', async () => {
    // What the command line prints, once; each other reference through the same scaffold and failure text in-process.
    const run = cli(dir, 'init', '--plugin', '../elsewhere/tools.ts');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('concord init: --plugin ../elsewhere/tools.ts: ');
    expect(run.stderr).toContain('hint: ');
    for (const plugin of ['./src/../../tools.ts', '/abs/tools.ts', 'no spaces allowed']) {
      const refused = await scaffoldProject(dir, plugin, {}).then(
        () => undefined,
        (error: unknown) => describeFailure(error),
      );
      expect(refused?.exit).toBe(2);
      expect(refused?.message.startsWith(`--plugin ${plugin}: `), refused?.message).toBe(true);
      expect(refused?.message).toContain('hint: ');
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes a reference without ./ as the file it names below the root, unless a package of that name resolves', async () => {
    await mkdir(join(dir, 'src'), { recursive: true });
    await writeFile(join(dir, 'src', 'orders.js'), PLUGIN);
    const asFile = await scaffoldProject(dir, 'src/orders.js', {});
    expect(asFile.scenario).toEqual({
      name: 'orders',
      pluginReference: '../src/orders.js',
      pluginFile: 'src/orders.js',
    });
    // A package named `src` wins, as it does for Node; a name that is neither stays a package name.
    await mkdir(join(dir, 'node_modules', 'src'), { recursive: true });
    await writeFile(
      join(dir, 'node_modules', 'src', 'package.json'),
      JSON.stringify({ name: 'src', exports: { './orders.js': './orders.js' } }),
    );
    await writeFile(join(dir, 'node_modules', 'src', 'orders.js'), PLUGIN);
    expect((await scaffoldProject(dir, 'src/orders.js', {})).scenario).toMatchObject({
      pluginReference: 'src/orders.js',
    });
    expect((await scaffoldProject(dir, 'lib/missing.js', {})).scenario).toMatchObject({
      pluginReference: 'lib/missing.js',
    });
  });
});

/**
 * `gate --update=new` on the given runtimes: its exit code, and its last line. Not about a cold start: the gate
 * starts from the verdicts earlier gates of the run computed (in the project at `root`), and leaves its own.
 */
async function gateNew(root: string, cwd: string, runtimes: string[]) {
  await seedCache(root);
  const gate = cli(cwd, 'gate', '--update=new', '--runtime', ...runtimes);
  await keepCache(root);
  return { status: gate.status, last: gate.stdout.trimEnd().split('\n').at(-1), out: gate.stdout + gate.stderr };
}

describe('concord init never breaks a project', () => {
  // The stock project with its snapshots recorded, once: the tests that start from a project with scenarios
  // get a copy of it instead of recording it again.
  let recorded = '';
  beforeAll(async () => {
    recorded = await mkdtemp(join(tmpdir(), 'concord-init-recorded-'));
    await writeStockProject(recorded);
    const gate = await gateNew(recorded, recorded, ['typescript']);
    expect(gate.last, gate.out).toBe('gate: everything agrees');
    expect(gate.status).toBe(0);
  }, 180_000);
  afterAll(() => rm(recorded, { recursive: true, force: true }));
  // Its files, not its verdict cache: a gate of the copy starts from the run's warm cache (seedCache).
  const copyRecorded = () =>
    cp(recorded, dir, { recursive: true, filter: (source) => source !== join(recorded, '.concord') });

  it('without --plugin, in a fresh folder: no scenario, the way to add one, and a gate that says the same', async () => {
    const run = cli(dir, 'init');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('add a scenario: npx concord init --plugin ./src/plugins/<your-tools>.ts');
    expect(run.stdout).toContain('docs/scenarios.md');
    expect(Object.keys(await tree(dir)).sort()).toEqual(['.gitignore', 'concord.config.yml']);
    const gate = cli(dir, 'gate');
    expect(gate.status).toBe(2);
    expect(gate.stderr).toContain('concord init --plugin');
  });

  it('without --plugin, in a project with scenarios: their files unchanged, and the gate passes as before', {
    timeout: 180_000,
  }, async () => {
    await copyRecorded();
    const before = await tree(join(dir, 'scenarios'));
    const run = cli(dir, 'init', '--ci', 'github');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/^ +(wrote|kept) +scenarios\//m);
    expect(await tree(join(dir, 'scenarios'))).toEqual(before);
    await seedCache(dir);
    const gate = cli(dir, 'gate', '--runtime', 'typescript');
    expect(gate.stdout.trimEnd().split('\n').at(-1), gate.stdout + gate.stderr).toBe('gate: everything agrees');
    expect(gate.status).toBe(0);
  });

  it('with --plugin ./src/plugins/tools.ts in a fresh folder: a scenario the gate passes as written, in both languages', {
    timeout: 300_000,
  }, async () => {
    await mkdir(join(dir, 'src', 'plugins'), { recursive: true });
    await writeFile(join(dir, 'src', 'plugins', 'tools.ts'), PLUGIN);
    const run = cli(dir, 'init', '--plugin', './src/plugins/tools.ts');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('wrote    scenarios/tools.yml');
    const [scenario] = await loadScenarios(join(dir, 'scenarios'), dir);
    expect(scenario!.composition.map((e) => e.id)).toEqual(['tools', 'tools-plugin', 'agent']);
    const gate = await gateNew(dir, join(dir, 'src'), ['typescript', 'python']);
    expect(gate.last, gate.out).toBe('gate: everything agrees');
    expect(gate.status).toBe(0);
    const sdk = await readFile(join(dir, 'snapshots', 'tools', 'typescript', 'tools-sdk.ts'), 'utf8');
    expect(sdk).toContain('/** Counts the items in stock. */');
  });

  it('with --plugin in a project with scenarios: a new name beside theirs, one scenario per plugin, and a second run changes nothing', {
    timeout: 300_000,
  }, async () => {
    // The project already has a scenario called "stock" (its own, recorded), on another plugin.
    await copyRecorded();
    await mkdir(join(dir, 'src', 'plugins'), { recursive: true });
    await writeFile(join(dir, 'src', 'plugins', 'stock.ts'), PLUGIN);
    const first = cli(dir, 'init', '--plugin', './src/plugins/stock.ts');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('wrote    scenarios/stock-2.yml');
    expect(await readFile(join(dir, 'scenarios', 'stock.yml'), 'utf8')).toBe(stockScenario('stock'));
    const names = (await loadScenarios(join(dir, 'scenarios'), dir)).map((s) => s.name).sort();
    expect(names).toEqual(['stock', 'stock-2']);

    const before = await tree(dir);
    const again = cli(dir, 'init', '--plugin', './src/plugins/stock.ts');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('kept     scenarios/stock-2.yml (it already gates ../src/plugins/stock.ts)');
    expect(again.stdout).not.toContain('wrote');
    expect(await tree(dir)).toEqual(before);

    const gate = await gateNew(dir, dir, ['typescript']);
    expect(gate.last, gate.out).toBe('gate: everything agrees');
    expect(gate.status).toBe(0);
    expect(existsSync(join(dir, 'snapshots', 'stock-2', 'typescript', 'tools-sdk.ts'))).toBe(true);
  });
});

describe('init names the optional peers the gate will use', () => {
  it('lists tsx (for a .ts plugin), pyright and js-tiktoken at their pinned versions, and only those not installed', async () => {
    const { peerDependencies } = JSON.parse(readFileSync(sourceAsset('package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>;
    };
    const first = cli(dir, 'init', '--plugin', './src/plugins/shop.ts');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      `npm install --save-dev tsx@${peerDependencies.tsx} pyright@${peerDependencies.pyright} js-tiktoken@${peerDependencies['js-tiktoken']}      # the optional peers this gate uses`,
    );
    for (const name of ['tsx', 'pyright']) mkdirSync(join(dir, 'node_modules', name), { recursive: true });
    const again = cli(dir, 'init', '--plugin', './lib/plugin.mjs');
    expect(again.stdout).toContain(`npm install --save-dev js-tiktoken@${peerDependencies['js-tiktoken']}      #`);
    expect(again.stdout).not.toContain('tsx@');
  });
});
