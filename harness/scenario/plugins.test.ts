import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtModule } from '../../runtimes/seam/package-root.js';
import { disposeSharedRuntimes } from '../../runtimes/seam/pool.js';
import { assemble, bootAssembly, composeWithModel, MODEL_PLUGIN } from '../assembly/assemble.js';
import { runtimeTarget } from '../assembly/runtimes.js';
import { loadScenarios } from './discover.js';
import { InputError } from './error.js';

let root: string;
let outside: string;

/** A scenario whose second entry names `plugin` (line 6, column 13) with `config`. */
const scenario = (plugin: string, config = '') => `name: demo
description: A demo.
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: extra
    plugin: ${JSON.stringify(plugin)}${config}
  - id: agent
    plugin: concord/agent
    config: { persona: Helpful. }
script:
  - user: Hello?
  - final: Hi.
`;

async function put(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** Loads `scenarios/demo.yml` of the project; the error when it is refused. */
async function load(text: string, folder = 'scenarios') {
  await rm(join(root, 'scenarios'), { recursive: true, force: true });
  await put(join(root, folder, 'demo.yml'), text);
  return loadScenarios(join(root, 'scenarios'), root);
}

async function refusal(text: string, folder?: string): Promise<InputError> {
  const error = await load(text, folder).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof InputError)) throw new Error(`expected an InputError, got ${String(error)}`);
  return error;
}

const TOOL_PLUGIN = `import type { Context } from 'cordis';
import type { RegisteredTool } from 'concord/contract';
const tool: RegisteredTool = { name: 'stock', description: 'Units in stock.', parameters: { type: 'object', properties: {} }, execute: async () => 3 };
export default { name: 'inventory', inject: ['tools'], apply(ctx: Context) { (ctx as any).tools.register(tool); } };
`;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'concord-plugins-')));
  outside = await realpath(await mkdtemp(join(tmpdir(), 'concord-outside-')));
  await put(join(outside, 'evil.ts'), 'throw new Error("outside code ran");\n');
  await put(join(root, 'package.json'), JSON.stringify({ name: 'team-backend', type: 'module' }));
  await put(join(root, 'src/plugins/inventory.ts'), TOOL_PLUGIN);
  await put(
    join(root, 'node_modules/@team/backend/package.json'),
    JSON.stringify({ name: '@team/backend', type: 'module', exports: { './plugin': './plugin.js' } }),
  );
  await put(join(root, 'node_modules/@team/backend/plugin.js'), 'export default { name: "x", apply() {} };\n');
});

afterAll(async () => {
  await disposeSharedRuntimes();
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('plugin references', () => {
  it("resolves concord's public names from concord's own package", async () => {
    const [loaded] = await load(scenario('concord/tools', '\n    config: { mode: code }'));
    expect(loaded!.composition.map((e) => e.resolved)).toEqual([
      { file: builtModule('codemode/tools/plugin.ts'), concord: 'concord/tools' },
      { file: builtModule('codemode/tools/plugin.ts'), concord: 'concord/tools' },
      { file: builtModule('codemode/agent/plugin.ts'), concord: 'concord/agent' },
    ]);
  });

  it('resolves a path relative to the scenario file, with or without its extension', async () => {
    for (const ref of ['../src/plugins/inventory.ts', '../src/plugins/inventory']) {
      const [loaded] = await load(scenario(ref));
      expect(loaded!.composition[1]!.resolved).toEqual({ file: join(root, 'src/plugins/inventory.ts') });
    }
  });

  it('resolves a scoped package subpath from the project root, as Node resolves imports', async () => {
    const [loaded] = await load(scenario('@team/backend/plugin'));
    expect(loaded!.composition[1]!.resolved).toEqual({ file: join(root, 'node_modules/@team/backend/plugin.js') });
  });

  it.each([
    ['concord/model', /concord has no plugin named "concord\/model"/, /concord\/tools, concord\/agent/],
    ['../../outside/evil.ts', /leaves the project root/, /keep plugins inside the project/],
    ['@team/backend/secret', /cannot be resolved/, /does not export this path/],
    ['left-pad', /cannot be resolved/, /npm install left-pad/],
    [
      'src/plugins/inventory.ts',
      /cannot be resolved/,
      /^"src\/plugins\/inventory.ts" is read as a package; for the file src\/plugins\/inventory.ts write "\.\.\/src\/plugins\/inventory.ts" /,
    ],
    ['plugins/inventory.ts', /cannot be resolved/, /npm install plugins/],
    ['../src/plugins/missing', /not found: no file src\/plugins\/missing\{/, /relative to this scenario file/],
    ['/etc/passwd', /neither a package name nor a relative path/, /starting with \.\/ or \.\.\//],
  ])('refuses %s at the place it is named, before anything boots', async (ref, problem, hint) => {
    const error = await refusal(scenario(ref));
    expect([error.file, error.line, error.column]).toEqual([join(root, 'scenarios/demo.yml'), 8, 13]);
    expect(error.problem).toMatch(problem);
    expect(error.hint).toMatch(hint);
  });

  it.each([
    ['file', () => pathToFileURL(join(outside, 'evil.ts')).href],
    ['data', () => 'data:text/javascript,throw new Error("data code ran")'],
    ['http', () => 'http://127.0.0.1:9/evil.mjs'],
    ['node', () => 'node:child_process'],
    ['FILE', () => 'FILE:' + join(outside, 'evil.ts')],
  ])(
    'refuses a reference with the %s: scheme at its line and column, before anything resolves or runs',
    async (scheme, ref) => {
      const error = await refusal(scenario(ref()));
      expect([error.file, error.line, error.column]).toEqual([join(root, 'scenarios/demo.yml'), 8, 13]);
      expect(error.problem).toBe(`plugin ${JSON.stringify(ref())} has a scheme (${scheme}:)`);
      expect(error.hint).toMatch(/package name/);
    },
  );

  it.each(['@team/backend/../../evil', 'left-pad/./x', 'a b'])('refuses %s, which is no package name', async (ref) => {
    const error = await refusal(scenario(ref));
    expect(error.problem).toMatch(/neither a package name nor a relative path/);
  });

  it('refuses a relative path that climbs out of the root, and a symlink that leads out', async () => {
    const climbing = await refusal(scenario(`../../${basename(outside)}/evil.ts`));
    expect(climbing.problem).toMatch(/leaves the project root/);
    await symlink(join(outside, 'evil.ts'), join(root, 'src/plugins/linked.ts'));
    const linked = await refusal(scenario('../src/plugins/linked.ts'));
    expect(linked.problem).toContain(`(it is ${join(outside, 'evil.ts')})`);
  });

  it("checks the config of concord's own plugins before boot: a tools entry without mode", async () => {
    const error = await refusal(scenario('concord/tools', '\n    config: { pythonFloor: "3.9" }'));
    expect([error.line, error.column]).toEqual([9, 13]);
    expect(error.problem).toMatch(/entry "extra" \(concord\/tools\): .*mode is required/);
  });

  it('boots a TypeScript plugin of the project with no build step', { timeout: 60_000 }, async () => {
    const [loaded] = await load(scenario('../src/plugins/inventory.ts'));
    const app = await bootAssembly(
      await assemble(
        composeWithModel(loaded!, runtimeTarget('typescript', {}), {
          plugin: MODEL_PLUGIN,
          config: { scenario: loaded!.file, language: 'typescript' },
        }),
      ),
    );
    try {
      const tools = app.service<{ list(): Array<{ name: string }> }>('tools');
      expect(tools.list().map((t) => t.name)).toEqual(['stock']);
    } finally {
      await app.dispose();
    }
  });
});
