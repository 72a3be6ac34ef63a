import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { isMap, LineCounter, type Node, parseDocument } from 'yaml';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { scaffoldProject } from '../init/scaffold.js';
import { RUNTIME_NAMES } from '../runtime-names.js';
import { InputError } from './error.js';
import { OUTCOMES, parseScenario, SCENARIO_SHAPE } from './load.js';
import { SCENARIO_SCHEMA_FILE, scenarioJsonSchema, scenarioSchemaText } from './schema.js';
import { readYamlInput } from './yaml-input.js';

const schemaFile = sourceAsset(SCENARIO_SCHEMA_FILE);
const validate = new Ajv({ allErrors: false, strict: true }).compile(
  JSON.parse(await readFile(schemaFile, 'utf8')) as object,
);

/** The schema's verdict on a YAML text: undefined, or `line:column: message` of the first error, found in the YAML. */
function schemaVerdict(source: string): string | undefined {
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines });
  if (validate(doc.toJS())) return undefined;
  const error = validate.errors![0]!;
  return `${place(doc.contents as Node | null, error, lines)}: ${error.message}`;
}

/** Where an ajv error points in the YAML document: the node at its instance path, or the unknown key itself. */
function place(root: Node | null, error: ErrorObject, lines: LineCounter): string {
  let node: Node | null = root;
  for (const step of error.instancePath.split('/').slice(1)) {
    const key = step.replace(/~1/g, '/').replace(/~0/g, '~');
    node =
      ((node as { get?: (key: unknown, keepScalar: boolean) => unknown } | null)?.get?.(
        /^\d+$/.test(key) && !isMap(node) ? Number(key) : key,
        true,
      ) as Node | undefined) ?? null;
  }
  let offset = node?.range?.[0] ?? 0;
  if (error.keyword === 'additionalProperties' && isMap(node)) {
    const pair = node.items.find(
      (p) =>
        (p.key as { value?: unknown } | null)?.value ===
        (error.params as { additionalProperty: string }).additionalProperty,
    );
    offset = (pair?.key as Node | undefined)?.range?.[0] ?? offset;
  }
  const { line, col } = lines.linePos(offset);
  return `${line}:${col}`;
}

/** The loader's verdict on the shape alone (the checks beyond it, such as the name matching the file, aside). */
function shapeVerdict(source: string): string | undefined {
  try {
    readYamlInput('/p/scenarios/demo.yml', source, SCENARIO_SHAPE, 'scenario', { hint: '' });
    return undefined;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return `${error.line}:${error.column}: ${error.problem}`;
  }
}

/** Every scenario file of this repository and of examples/ (past-floor holds one to copy into scenarios/). */
async function repositoryScenarios(): Promise<string[]> {
  const files: string[] = [];
  const examples = sourceAsset('examples');
  const folders = [sourceAsset('scenarios')];
  for (const example of await readdir(examples, { withFileTypes: true })) {
    if (example.isDirectory())
      folders.push(join(examples, example.name, 'scenarios'), join(examples, example.name, 'past-floor'));
  }
  for (const folder of folders) {
    const names = await readdir(folder).catch(() => [] as string[]);
    files.push(
      ...names
        .filter((name) => /\.ya?ml$/.test(name) && !name.includes('.recorded.'))
        .map((name) => join(folder, name)),
    );
  }
  return files;
}

const VALID = `name: demo
description: A demo.
runtimes: [typescript, python]
runtime:
  timeoutMs: 2000
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: agent
    plugin: concord/agent
script:
  - user: Hello?
  - assistant:
      say: Let me look.
      run_code:
        description: Say hi
        typescript: return 'hi';
        python: return 'hi'
      result_includes: [hi]
  - final: Hi.
expect:
  runs: [ok]
  final_includes: [Hi]
`;

describe('the scenario schema (concord/scenario.schema.json)', () => {
  it('is written from the shape the loader checks, and the committed file is what the build writes', async () => {
    expect(await readFile(schemaFile, 'utf8'), 'scenario.schema.json is stale: run npm run build and commit it').toBe(
      scenarioSchemaText(),
    );
    const pkg = JSON.parse(await readFile(sourceAsset('package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
      files: string[];
    };
    expect(pkg.exports['./scenario.schema.json']).toBe(`./${SCENARIO_SCHEMA_FILE}`);
    expect(pkg.files).toContain(SCENARIO_SCHEMA_FILE);
    const properties = scenarioJsonSchema().properties as Record<
      string,
      { properties?: Record<string, { items?: { enum?: string[] } }> }
    >;
    expect(properties['expect']!.properties!['runs']!.items!.enum).toEqual([...OUTCOMES]);
  });

  it('accepts every scenario of this repository and of examples/, as the loader does', async () => {
    const files = await repositoryScenarios();
    expect(files.length).toBeGreaterThanOrEqual(11);
    for (const file of files) {
      const source = await readFile(file, 'utf8');
      expect(schemaVerdict(source), relative(sourceAsset('.'), file)).toBeUndefined();
      expect(parseScenario(file, source).name).toBe(basename(file).replace(/\.ya?ml$/, ''));
    }
  });

  it('rejects a typo (final_include) at its line and column, and so does the loader', () => {
    const typo = VALID.replace('  final_includes: [Hi]', '  final_include: [Hi]');
    expect(schemaVerdict(typo)).toBe('24:3: must NOT have additional properties');
    const error = (() => {
      try {
        parseScenario('/p/scenarios/demo.yml', typo);
      } catch (thrown) {
        return thrown as InputError;
      }
      throw new Error('the loader accepted the typo');
    })();
    expect(error.message.split('\n')[0]).toBe(
      '/p/scenarios/demo.yml:24:3: unknown key "final_include" in scenario.expect',
    );
    expect(error.hint).toBe('known keys: runs, final_includes');
  });

  it.each([
    ['an unknown top-level key', VALID.replace('runtimes:', 'runtimez:'), '3:1'],
    ['an unknown runtime', VALID.replace('[typescript, python]', '[typescript, cobol]'), '3:24'],
    ['no runtime at all', VALID.replace('[typescript, python]', '[]'), '3:11'],
    ['a zero time budget', VALID.replace('timeoutMs: 2000', 'timeoutMs: 0'), '5:14'],
    ['a time budget as text', VALID.replace('timeoutMs: 2000', 'timeoutMs: 2s'), '5:14'],
    ['a fractional time budget', VALID.replace('timeoutMs: 2000', 'timeoutMs: 2000.5'), '5:14'],
    ['a time budget past an hour', VALID.replace('timeoutMs: 2000', 'timeoutMs: 3600001'), '5:14'],
    ['a name with capitals', VALID.replace('name: demo', 'name: Demo'), '1:7'],
    ['an empty description', VALID.replace('description: A demo.', 'description: "  "'), '2:14'],
    ['an entry id starting with a digit', VALID.replace('id: tools', 'id: 9tools'), '7:9'],
    ['an entry without a plugin', VALID.replace('    plugin: concord/agent\n', ''), '10:5'],
    ['an empty composition', VALID.replace(/composition:\n[\s\S]*?script:/, 'composition: []\nscript:'), '6:14'],
    ['an unknown key in an entry', VALID.replace('    config: { mode: code }', '    confg: { mode: code }'), '9:5'],
    // The loader points at the second key, the schema at the step holding both.
    ['a step with two kinds', VALID.replace('  - final: Hi.', '  - final: Hi.\n    user: again'), '22:5', '21:5'],
    ['an unknown step kind', VALID.replace('  - final: Hi.', '  - answer: Hi.'), '21:5'],
    ['a program in one language only', VALID.replace("        python: return 'hi'\n", ''), '17:9'],
    ['an empty program', VALID.replace("python: return 'hi'", 'python: ""'), '19:17'],
    ['a number as say', VALID.replace('say: Let me look.', 'say: 3'), '15:12'],
    ['result_includes as text', VALID.replace('result_includes: [hi]', 'result_includes: hi'), '20:24'],
    ['an unknown outcome', VALID.replace('runs: [ok]', 'runs: [fine]'), '23:10'],
    ['final_includes as text', VALID.replace('final_includes: [Hi]', 'final_includes: Hi'), '24:19'],
    ['an empty file', '', '1:1'],
  ])('and the loader reject the same mistakes at the same place: %s', (_, source, at, schemaAt = at) => {
    expect(shapeVerdict(source)?.split(': ')[0], shapeVerdict(source)).toBe(at);
    expect(schemaVerdict(source)?.split(': ')[0], schemaVerdict(source)).toBe(schemaAt);
  });

  it.each([
    [
      'flow style',
      'name: demo\ndescription: d\ncomposition: [{id: tools, plugin: concord/tools}]\nscript: [{user: hi}]\n',
    ],
    [
      'an empty say, a null config and empty blocks',
      VALID.replace('say: Let me look.', 'say: ""')
        .replace('config: { mode: code }', 'config: null')
        .replace('  timeoutMs: 2000', '  {}'),
    ],
    [
      'any JSON as config',
      VALID.replace('config: { mode: code }', 'config: { mode: [1, {a: null}], deep: { x: true } }'),
    ],
    ['a time budget of an hour', VALID.replace('timeoutMs: 2000', 'timeoutMs: 3600000')],
  ])('and the loader accept the same files: %s', (_, source) => {
    expect(shapeVerdict(source)).toBeUndefined();
    expect(schemaVerdict(source)).toBeUndefined();
  });

  it('accepts the scenario concord init writes, whose first line points editors at the installed schema', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'concord-schema-'));
    try {
      await scaffoldProject(dir, './src/plugins/orders.ts');
      const source = await readFile(join(dir, 'scenarios', 'orders.yml'), 'utf8');
      expect(source.split('\n')[0]).toBe(
        `# yaml-language-server: $schema=../node_modules/concord/${SCENARIO_SCHEMA_FILE}`,
      );
      expect(schemaVerdict(source)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('docs/scenarios.md', () => {
  const docs = () => readFile(sourceAsset('docs/scenarios.md'), 'utf8');

  it('names every key of the schema, every runtime and every expect.runs outcome', async () => {
    const text = await docs();
    const keys = new Set<string>();
    const walk = (schema: { properties?: Record<string, unknown>; items?: unknown }): void => {
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        keys.add(key);
        walk(child as typeof schema);
      }
      if (schema.items) walk(schema.items as typeof schema);
    };
    walk(scenarioJsonSchema());
    expect(keys.size).toBeGreaterThanOrEqual(20);
    for (const word of [...keys, ...RUNTIME_NAMES, ...OUTCOMES]) expect(text, word).toContain(`\`${word}\``);
  });

  it('shows only scenarios the schema and the loader accept', async () => {
    const blocks = [...(await docs()).matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .filter((block) => /^name: /m.test(block));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const block of blocks) {
      const name = /^name: (\S+)/m.exec(block)![1]!;
      expect(schemaVerdict(block), name).toBeUndefined();
      expect(parseScenario(`/p/scenarios/${name}.yml`, block).name).toBe(name);
    }
  });
});
