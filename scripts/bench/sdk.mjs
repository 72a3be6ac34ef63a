// SDK rendering at scale: a large tool set and very deep schemas, in both languages. For each shape it
// renders a size N and a size 10N; "ratio" is time per node at 10N over time per node at N (linear ≈ 1).
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { built } from './support/built.mjs';

// A collection before each timed render keeps the garbage of the previous input out of the measurement.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');

const { renderTypeScriptSdk } = await built('codemode/sdk/typescript/index.js');
const { renderPythonSdk } = await built('codemode/sdk/python/index.js');

const { loadCorpus } = await built('codemode/schema/corpus/load.js');

const RENDERERS = { typescript: renderTypeScriptSdk, python: renderPythonSdk };

/** The real-world corpus (MCP servers, pydantic, OpenAPI), renamed copies to reach `n` tools. */
const CORPUS = loadCorpus().flatMap((source) => source.tools);
function corpusTools(n) {
  return Array.from({ length: n }, (_, i) => {
    const tool = CORPUS[i % CORPUS.length];
    // A fresh copy of the schemas each time: a renderer may remember objects it has seen.
    return { ...structuredClone(tool), name: `${tool.name}_${Math.floor(i / CORPUS.length)}` };
  });
}

/** A tool whose arguments are nested objects, arrays, enums and unions, varied by index. */
function nestedTool(index) {
  const address = {
    type: 'object',
    properties: {
      street: { type: 'string', description: 'Street and number.' },
      city: { type: 'string' },
      zone: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
    },
    required: ['city'],
  };
  return {
    name: `tool_${String(index).padStart(4, '0')}`,
    description: `Looks up record kind ${index % 7} by id and returns it with its history.`,
    parameters: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        kind: { enum: ['a', 'b', 'c', `k${index % 13}`] },
        filters: {
          type: 'array',
          items: { type: 'object', properties: { field: { type: 'string' }, value: { type: 'number' } } },
        },
        owner: { type: 'object', properties: { name: { type: 'string' }, address } },
      },
      required: ['id'],
      additionalProperties: false,
    },
    output: {
      type: 'object',
      properties: {
        found: { type: 'boolean' },
        history: { type: 'array', items: { type: 'object', properties: { at: { type: 'string' }, by: address } } },
      },
    },
  };
}

/** Builds `depth` levels of `wrap` around a string leaf, iteratively (no recursion at any depth). */
function chain(depth, wrap) {
  let node = { type: 'string' };
  for (let level = 0; level < depth; level++) node = wrap(node);
  return node;
}

function chainTool(name, schema) {
  return [
    {
      name,
      description: 'A deeply nested argument.',
      parameters: { type: 'object', properties: { value: schema }, required: ['value'] },
    },
  ];
}

const SHAPES = [
  {
    name: 'tools (nested schemas)',
    unit: 'tools',
    sizes: [100, 1_000],
    build: (n) => Array.from({ length: n }, (_, i) => nestedTool(i)),
  },
  { name: 'real-world corpus', unit: 'tools', sizes: [CORPUS.length, CORPUS.length * 10], build: corpusTools },
  {
    name: 'oneOf chain',
    unit: 'levels',
    sizes: [10_000, 100_000],
    build: (n) =>
      chainTool(
        'one_of',
        chain(n, (next) => ({ oneOf: [{ type: 'integer' }, next] })),
      ),
  },
  {
    name: 'list chain',
    unit: 'levels',
    sizes: [2_000, 20_000],
    build: (n) =>
      chainTool(
        'lists',
        chain(n, (next) => ({ type: 'array', items: next })),
      ),
  },
  {
    name: 'single-field object chain',
    unit: 'levels',
    sizes: [400, 4_000],
    build: (n) =>
      chainTool(
        'objects',
        chain(n, (next) => ({ type: 'object', properties: { inner: next }, required: ['inner'] })),
      ),
  },
];

/**
 * Best of a few runs, each on a freshly built input (a renderer may remember what it has seen), after one
 * untimed warm-up render. The machine is shared: the minimum is the least disturbed measurement.
 */
function measure(render, build, size) {
  render(build(size), { pythonFloor: '3.9' });
  let best = Infinity;
  let text = '';
  for (let run = 0; run < 5; run++) {
    const tools = build(size);
    collectGarbage();
    const start = performance.now();
    text = render(tools, { pythonFloor: '3.9' });
    best = Math.min(best, performance.now() - start);
  }
  return { ms: best, bytes: Buffer.byteLength(text) };
}

const fmt = (value, digits = 1) => value.toFixed(digits).padStart(10);

export default async function run(log) {
  log(
    `${'language'.padEnd(11)}${'shape'.padEnd(27)}${'size'.padStart(9)}${'ms'.padStart(10)}${'bytes'.padStart(12)}${'ratio'.padStart(8)}`,
  );
  for (const [language, render] of Object.entries(RENDERERS)) {
    for (const shape of SHAPES) {
      const rows = [];
      for (const size of shape.sizes) {
        try {
          rows.push({ size, ...measure(render, shape.build, size) });
        } catch (error) {
          rows.push({ size, error: `${error.name}: ${error.message}` });
        }
      }
      const [small, large] = rows;
      const ratio = small.error || large.error ? NaN : large.ms / large.size / (small.ms / small.size);
      rows.forEach((row, index) => {
        const head = `${language.padEnd(11)}${shape.name.padEnd(27)}${String(row.size).padStart(9)}`;
        if (row.error) log(`${head}  failed: ${row.error}`);
        else
          log(
            `${head}${fmt(row.ms)}${String(row.bytes).padStart(12)}${index === 1 && !Number.isNaN(ratio) ? fmt(ratio, 2).slice(2) : ''}`,
          );
      });
    }
  }
  log('ratio = (ms per unit at the larger size) / (ms per unit at the smaller size); linear growth gives about 1.');
  for (const [language, render] of Object.entries(RENDERERS)) {
    const { ms, bytes } = measure(render, () => corpusTools(CORPUS.length), CORPUS.length);
    log(
      `${language}: real-world corpus, ${CORPUS.length} tools: ${((ms * 1000) / CORPUS.length).toFixed(1)} µs and ${Math.round(bytes / CORPUS.length)} bytes per tool`,
    );
  }
}
