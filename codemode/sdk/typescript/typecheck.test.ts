import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listChain, objectChain, oneOfChain } from '../../schema/deep-schemas.js';
import { toolSetArbitrary } from '../../schema/test/arbitrary.js';
import type { ToolDefinition } from '../../tools/types.js';
import { collidingBaseToolSetArbitrary } from '../test/colliding-bases.js';
import { sharedRootToolSetArbitrary } from '../test/shared-root-tools.js';
import { renderTypeScriptSdk } from './index.js';
import { diagnose } from './test/compile.js';

const object = (properties: Record<string, unknown>, required: string[] = [], extra: object = {}): object => ({
  type: 'object',
  properties,
  required,
  ...extra,
});

const VARIED_TOOLS: ToolDefinition[] = [
  {
    name: 'search_docs',
    description: 'Find pages.\n*/ not the end */\u2028still a comment\u2029new paragraph \u0000 \ud800',
    parameters: object(
      {
        query: { type: 'string', description: 'Text */ to find' },
        limit: { type: 'integer', enum: [10, 100, 1e21] },
        mode: { oneOf: [{ const: 'fast' }, { const: 'deep"er' }, { type: 'null' }] },
        filters: {
          type: 'array',
          items: { oneOf: [object({ tag: { type: 'string' } }, ['tag']), { type: 'string' }] },
        },
      },
      ['query'],
      { additionalProperties: false },
    ),
    output: { type: 'array', items: object({ url: { type: 'string' }, score: { type: 'number' } }, ['url', 'score']) },
  },
  {
    name: 'exotic-name',
    description: '',
    parameters: object({ 'a-b': { type: 'boolean' }, '': {}, '\u2028': { type: 'null' } }, ['a-b']),
  },
  { name: 'search-docs', description: 'same base as search_docs', parameters: { type: 'object' } },
  {
    name: 'open',
    description: 'open object',
    parameters: object({ a: { type: 'string' } }, [], { additionalProperties: true }),
  },
  { name: 'none', description: 'no arguments', parameters: object({}, [], { additionalProperties: false }) },
  {
    name: 'broken',
    description: 'schema with no type',
    parameters: { type: 'date', format: 'uri' },
    output: { $ref: '#' },
  },
  {
    name: 'deep',
    description: '',
    parameters: object({ list: listChain(200), chain: objectChain(100), union: oneOfChain(1_000) }),
  },
  {
    name: 'keys',
    description: '',
    parameters: object(
      Object.fromEntries(
        ['__proto__', 'constructor', 'new', 'get', 'set', 'readonly', 'class', '1st', 'toString'].map((key) => [
          key,
          { type: 'number' },
        ]),
      ),
      ['__proto__', 'new'],
    ),
  },
  { name: 'big', description: '', parameters: { enum: [-(2 ** 70), 1e300, 0.5, -1.5e-7, true, null, ''] } },
  ...[
    'new',
    'get',
    'set',
    'async',
    'readonly',
    'constructor',
    '__proto__',
    'delete',
    'class',
    '',
    '1st',
    'café',
    '検索',
    'a"b',
    'x\u2028y',
    '\ud800',
    '*/',
  ].map(
    (name): ToolDefinition => ({
      name,
      description: `the tool ${name} */`,
      parameters: { type: 'object' },
      output: { type: 'string' },
    }),
  ),
];

const PROGRAM = `
async function main(): Promise<void> {
  const pages = await tools.search_docs({ query: "x", limit: 1000000000000000000000, mode: null, filters: [{ tag: "a" }, "b"] });
  const url: string = pages[0]!.url;
  await tools["exotic-name"]({ "a-b": true, "": 1, "\\u2028": null });
  await tools["search-docs"]({ anything: [1] });
  await tools.open({ a: "x", other: 1 });
  await tools.none({});
  await tools.broken(42);
  await tools.deep({ list: [], union: null });
  // Optional fields named like Object.prototype members are checked against the inherited member
  // (Function for constructor) unless given: a compiler rule, not something the SDK text can change.
  await tools.keys({ ["__proto__"]: 1, new: 2, class: 3, "1st": 4, constructor: 5, toString: 6 });
  await tools.big(-1180591620717411303424);
  const texts: string[] = [
    await tools.new({}), await tools.get({}), await tools.set({}), await tools.async({}), await tools.readonly({}),
    await tools.constructor({}), await tools.delete({}), await tools.class({}), await tools[""]({}),
    await tools["1st"]({}), await tools["café"]({}), await tools["検索"]({}), await tools['a"b']({}),
    await tools["x\\u2028y"]({}), await tools["\\ud800"]({}), await tools["*/"]({}),
  ];
  try {
    await tools.search_docs({ query: url + texts.join("") });
  } catch (error) {
    if (error instanceof ToolCallError) {
      const failed: string = error.toolName;
      throw new Error(failed + error.message);
    }
  }
}
void main();
`;

describe('the rendered TypeScript SDK under the TypeScript compiler', () => {
  const sdk = renderTypeScriptSdk(VARIED_TOOLS);

  it('type-checks with a program that calls every tool', () => {
    expect(diagnose(sdk, PROGRAM)).toEqual([]);
  });

  it('reports a wrong field name, a wrong field type and an unknown tool', () => {
    const wrong = (line: string): string[] => diagnose(sdk, `async function main(): Promise<void> {\n  ${line}\n}\n`);
    expect(wrong('await tools.search_docs({ qurey: "x" });').join('\n')).toMatch(/qurey/);
    expect(wrong('await tools.search_docs({ query: 1 });').join('\n')).toMatch(/not assignable to type 'string'/);
    expect(wrong('await tools.search_docs({ query: "x", mode: "slow" });').join('\n')).toMatch(/"slow"/);
    expect(wrong('await tools.nonexistent({});').join('\n')).toMatch(/nonexistent/);
    expect(wrong('const n: number = (await tools.search_docs({ query: "x" }))[0]!.url;').join('\n')).toMatch(
      /not assignable/,
    );
  });

  it('accepts a map whose values are the schema itself, and types its values', () => {
    // A `Record<string, A>` alias naming itself is a circular alias to the compiler; an index signature is not.
    const tools: ToolDefinition[] = [
      {
        name: 'tree',
        description: '',
        parameters: { type: 'object' },
        output: { type: 'object', additionalProperties: { $ref: '#' } },
      },
    ];
    const sdk = renderTypeScriptSdk(tools);
    expect(diagnose(sdk, 'export {};\n')).toEqual([]);
    const program =
      'async function main(): Promise<void> { const t = await tools.tree({}); const n: number = t["a"]; }\nexport {};\n';
    expect(diagnose(sdk, program).join('\n')).toMatch(/not assignable to type 'number'/);
  });

  it('accepts the SDK of random tool sets, valid schemas or not', () => {
    // Each run builds a whole program; a few dozen keep the file fast on a shared machine.
    fc.assert(
      fc.property(toolSetArbitrary({ maxTools: 6 }), (tools) => {
        expect(diagnose(renderTypeScriptSdk(tools), 'export {};\n')).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });

  it('names apart the types nested in a tool and in a shared definition with one base', () => {
    // `money`'s arguments and the `Money` definition each hold an object twice, at the same path: both would be
    // `Money_A`.
    const pair = () => object({ p: { type: 'string' }, q: { type: 'integer' } });
    const holder = () => object({ a: pair(), b: pair(), c: { type: 'string' } });
    const byMoney = (name: string): ToolDefinition => ({
      name,
      description: '',
      parameters: { ...object({ m: { $ref: '#/$defs/Money' } }), $defs: { Money: holder() } },
    });
    const twice = object({ z: { type: 'boolean' }, w: { type: 'boolean' } });
    const sdk = renderTypeScriptSdk([
      { name: 'money', description: '', parameters: object({ a: twice, b: structuredClone(twice) }) },
      byMoney('pay'),
      byMoney('refund'),
    ]);
    expect(sdk.match(/^type Money_A\d* =/gm)).toEqual(['type Money_A =', 'type Money_A2 =']);
    expect(diagnose(sdk, 'export {};\n')).toEqual([]);
  });

  it('accepts the SDK of tool sets whose tools, definitions and repeated objects make one name', () => {
    fc.assert(
      fc.property(collidingBaseToolSetArbitrary(), (tools) => {
        expect(diagnose(renderTypeScriptSdk(tools), 'export {};\n')).toEqual([]);
      }),
      // A few milliseconds each. About one set in a hundred or two meets two declarations of `Money_A` (a tool and a
      // definition with one base): most runs of 400 meet it, the test above always does.
      { numRuns: 400 },
    );
  });

  it('accepts the SDK of tool sets that share their roots under names that collide', () => {
    fc.assert(
      fc.property(sharedRootToolSetArbitrary(), (tools) => {
        expect(diagnose(renderTypeScriptSdk(tools), 'export {};\n')).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });
});
