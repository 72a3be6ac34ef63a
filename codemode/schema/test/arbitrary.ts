/**
 * fast-check arbitraries for property tests of anything that reads schemas or tool sets (both SDK
 * renderers, the validator). Values aim at the awkward: names and text that break comments, strings and
 * identifiers; big and fractional numbers; JSON Schema as real tools write it; and, in the mixed flavour,
 * nodes that no type can express.
 */
import fc from 'fast-check';
import type { ToolDefinition } from '../../tools/types.js';
import type { JsonSchema, SchemaScalar } from '../types.js';

/** Fragments that have broken generated source before: comment closers, separators, quotes, escapes. */
const AWKWARD_FRAGMENTS = [
  '*/',
  '/*',
  '"""',
  "'''",
  '\\',
  '"',
  "'",
  '`',
  '${',
  '#',
  '\n',
  '\r\n',
  '\r',
  '\u2028',
  '\u2029',
  '\u0085',
  '\u0000',
  '\u001b',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\u200d',
  'é',
  'ﬁ',
  '𝔘',
  '한',
  '\u1100\u1161',
  ' ',
  '\t',
];

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));

/** Text made of awkward fragments, arbitrary code units and plain words. */
export const awkwardTextArbitrary: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom(...AWKWARD_FRAGMENTS),
      fc.string({ unit: codeUnit, maxLength: 4 }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
    ),
    { maxLength: 6 },
  )
  .map((fragments) => fragments.join(''));

/**
 * What tool authors write that reads like something else: fences opening at a line's start (for JSON, for either
 * SDK language, none), code of both languages, calls on `tools`, Markdown, and plain prose between them. A
 * reader of an SDK must never take a description's words for the SDK's own.
 */
const CODE_LIKE_FRAGMENTS = [
  '\n```json\n{"q": "x", "limit": 3}\n```\n',
  '\n```\n',
  '\n```ts\n',
  '\n```typescript\nconst hits = await tools.search({ q: "x" });\n```\n',
  '\n```python\nhits = await tools.search({"q": "x"})\n```\n',
  '\n~~~\n',
  '```',
  '=>',
  'Promise<string>',
  'def f(x):',
  'None',
  ' -> ',
  'async function f() {}',
  'interface X {}',
  'const x: string = 1;',
  'declare const tools: {};',
  'import json',
  'from typing import Any',
  'class Tools:',
  'Optional[str]',
  'string | null',
  'x: str',
  'await tools["a-b"]({})',
  'raise ToolCallError',
  'print(x)',
  'console.log(x)',
  'eval("1")',
  'import os',
  '\n',
  ' ',
  'Returns the matches. ',
  'e.g. ',
  '(optional)',
  '- item\n',
  '1. step\n',
  '    indented\n',
  '# Heading\n',
  '**bold**',
  '`code`',
  '<b>',
  '{',
  '}',
  ':',
  ';',
  '|',
];

/** Text a tool author might write, made of code-like fragments and prose. */
export const codeLikeTextArbitrary: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...CODE_LIKE_FRAGMENTS), { maxLength: 14 })
  .map((fragments) => fragments.join(''));

/** Names that collide after case folding or normalization, keywords of both languages, and reserved keys. */
const AWKWARD_NAMES = [
  'search',
  'search_docs',
  'search-docs',
  'searchDocs',
  'SearchDocs',
  'new',
  'class',
  'def',
  'None',
  'await',
  'match',
  '__peg_parser__',
  '__debug__',
  '__proto__',
  'constructor',
  'toString',
  'delete',
  'get',
  'set',
  'async',
  'readonly',
  '_',
  '__x',
  '__init__',
  '',
  '1st',
  '123',
  'café',
  'cafe\u0301',
  'ﬁle',
  'ℌello',
  '𝔘nicode',
  'Ａ',
  '\u1100\u1161',
  'tool-',
  'tool_',
  'x'.repeat(120),
];

/** A tool or field name: awkward ones, identifier-like ones and arbitrary code units. */
export const awkwardNameArbitrary: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...AWKWARD_NAMES),
  fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/),
  fc.string({ unit: codeUnit, maxLength: 6 }),
);

const BIG_AND_ODD_NUMBERS = [0, -0, 1e21, -1e21, 2 ** 53 + 2, 1e300, -1.5e-7, 0.1, Number.MAX_VALUE, Number.MIN_VALUE];

const integerArbitrary = fc.oneof(fc.integer(), fc.constantFrom(0, 1e21, -1e21, 2 ** 53 + 2, 1e300));
const numberArbitrary = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(...BIG_AND_ODD_NUMBERS),
);
const scalarArbitrary: fc.Arbitrary<SchemaScalar> = fc.oneof(
  awkwardTextArbitrary,
  numberArbitrary,
  fc.boolean(),
  fc.constant(null),
);

/** Equal scalars for the purpose of `enum` uniqueness (the validator's rule). */
const scalarIdentity = (value: SchemaScalar): string => `${typeof value}:${String(value)}`;

const enumValues = <T extends SchemaScalar>(values: fc.Arbitrary<T>): fc.Arbitrary<T[]> =>
  fc.uniqueArray(values, { selector: scalarIdentity, minLength: 1, maxLength: 5 });

/** Keywords that annotate or constrain without changing a shape: a renderer must never lose a type to them. */
const annotationsArbitrary: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    description: awkwardTextArbitrary,
    title: awkwardTextArbitrary,
    default: fc.jsonValue({ maxDepth: 2 }),
    examples: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
    $comment: awkwardTextArbitrary,
    $schema: fc.constantFrom('http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft/2020-12/schema'),
    format: fc.oneof(fc.constantFrom('date-time', 'uri', 'email', 'uuid'), awkwardTextArbitrary),
    minimum: numberArbitrary,
    exclusiveMaximum: fc.oneof(numberArbitrary, fc.boolean()),
    multipleOf: numberArbitrary,
    minLength: fc.nat(),
    maxLength: fc.nat(),
    pattern: awkwardTextArbitrary,
    minItems: fc.nat(),
    uniqueItems: fc.boolean(),
    deprecated: fc.boolean(),
    readOnly: fc.boolean(),
    'x-vendor': fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);

const leafArbitrary: fc.Arbitrary<JsonSchema> = fc.oneof(
  fc.constantFrom<JsonSchema>(
    { type: 'string' },
    { type: 'number' },
    { type: 'integer' },
    { type: 'boolean' },
    { type: 'null' },
    {},
  ),
  enumValues(scalarArbitrary).map((values): JsonSchema => ({ enum: values })),
  enumValues(awkwardTextArbitrary).map((values): JsonSchema => ({ type: 'string', enum: values })),
  enumValues(integerArbitrary).map((values): JsonSchema => ({ type: 'integer', enum: values })),
  scalarArbitrary.map((value): JsonSchema => ({ const: value })),
);

/** Nodes that break one rule each; the mixed flavour hides them anywhere in a tree. */
function brokenArbitrary(schema: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(
      null,
      3,
      'string',
      true,
      [],
      { type: 'date' },
      { type: ['string', 'null'] },
      { enum: [] },
      { enum: [{}] },
      { enum: ['a', 'a'] },
      { const: [1] },
      { type: 'integer', enum: [1.5] },
      false,
      { type: 'date' },
      { type: ['string', 'date'] },
      { type: [] },
      { enum: [] },
      { enum: [{}] },
      { const: [1] },
      { $ref: '#/definitions/missing' },
      { $ref: 'https://example.com/schema.json' },
      { $ref: '#' },
      { $ref: '#/$defs/Loop' },
      { anyOf: [] },
      { allOf: [{ type: 'string' }, { type: 'integer' }] },
      { type: 'object', required: [1] },
      { type: 'array', items: [] },
      { properties: {} },
    ),
    schema.map((arm) => ({ oneOf: [arm] })),
    fc.tuple(schema, schema).map(([a, b]) => ({ type: 'string', oneOf: [a, b] })),
    fc.tuple(schema, schema).map(([a, b]) => ({ allOf: [a, b] })),
    schema.map((items) => ({ items })),
  );
}

/** A definition every generated root carries: recursive through its own fields, as pydantic writes a tree. */
function withDefinitions(root: unknown, value: unknown): unknown {
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return root;
  const definition = {
    type: 'object',
    title: 'Node',
    properties: { value, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
    required: ['value'],
  };
  return { ...root, $defs: { Node: definition, Loop: { anyOf: [{ $ref: '#/$defs/Loop' }, { type: 'null' }] } } };
}

/**
 * Shapes as real tools write them: unions with a null arm, `type` lists, OpenAPI's `nullable`, `allOf` of
 * objects, tuples in both spellings, maps, references (recursive too), discriminated unions.
 */
function realWorldShapes(node: fc.Arbitrary<unknown>): fc.Arbitrary<unknown>[] {
  return [
    node.map((arm) => ({ anyOf: [arm, { type: 'null' }] })),
    fc.constantFrom(['string', 'null'], ['integer', 'string'], ['number', 'boolean', 'null']).map((type) => ({ type })),
    fc.constantFrom('string', 'integer', 'object', 'array').map((type) => ({ type, nullable: true })),
    fc.tuple(node, node).map(([x, y]) => ({
      allOf: [
        { type: 'object', properties: { x }, required: ['x'] },
        { type: 'object', properties: { y }, additionalProperties: false },
      ],
    })),
    fc.tuple(node, node).map(([a, b]) => ({ type: 'array', prefixItems: [a, b], items: false })),
    fc.tuple(node, node).map(([a, b]) => ({ type: 'array', items: [a, b], minItems: 2, maxItems: 2 })),
    fc.tuple(node, node).map(([a, rest]) => ({ type: 'array', prefixItems: [a], items: rest })),
    node.map((value) => ({ type: 'object', additionalProperties: value })),
    node.map((value) => ({ type: 'object', patternProperties: { '^x-': value }, additionalProperties: false })),
    fc.constant({ $ref: '#/$defs/Node' }),
    fc.constant({ $ref: '#/$defs/Node', description: 'A reference with a description beside it.' }),
    fc.tuple(awkwardTextArbitrary, awkwardTextArbitrary).map(([a, b]) => ({
      oneOf: [
        { type: 'object', properties: { kind: { const: a }, size: { type: 'integer' } }, required: ['kind'] },
        { type: 'object', properties: { kind: { const: b } }, required: ['kind'] },
      ],
      discriminator: { propertyName: 'kind' },
    })),
  ];
}

function schemaTree(options: { invalid: boolean; maxDepth: number }): fc.Arbitrary<unknown> {
  const { tree } = fc.letrec((tie) => {
    const node = tie('tree');
    const object = fc
      .uniqueArray(fc.tuple(awkwardNameArbitrary, node), {
        selector: ([name]) => name,
        maxLength: 5,
        depthIdentifier: 'schema',
      })
      .chain((fields) => {
        const names = fields.map(([name]) => name);
        return fc
          .record(
            {
              required: fc.subarray(names),
              additionalProperties: fc.boolean(),
            },
            { requiredKeys: [] },
          )
          .map((extra) => ({ type: 'object', properties: Object.fromEntries(fields), ...extra }));
      });
    const array = fc
      .option(node, { nil: undefined })
      .map((items) => (items === undefined ? { type: 'array' } : { type: 'array', items }));
    const oneOf = fc
      .array(node, { minLength: 2, maxLength: 4, depthIdentifier: 'schema' })
      .map((arms) => ({ oneOf: arms }));
    const shapes: fc.Arbitrary<unknown>[] = [leafArbitrary, object, array, oneOf, ...realWorldShapes(node)];
    if (options.invalid) shapes.push(brokenArbitrary(node));
    const annotated = fc
      .tuple(
        fc.oneof({ maxDepth: options.maxDepth, depthIdentifier: 'schema', withCrossShrink: true }, ...shapes),
        annotationsArbitrary,
      )
      .map(([shape, annotations]) =>
        typeof shape === 'object' && shape !== null && !Array.isArray(shape) ? { ...annotations, ...shape } : shape,
      );
    return { tree: annotated };
  });
  return fc.tuple(tree, tree).map(([root, value]) => withDefinitions(root, value));
}

/** Schemas that lower with no degradation: every part of them has a type in both languages. */
export function validSchemaArbitrary(maxDepth = 4): fc.Arbitrary<JsonSchema> {
  return schemaTree({ invalid: false, maxDepth }) as fc.Arbitrary<JsonSchema>;
}

/** Schemas that may hold untypable nodes anywhere (often they do not): renderers must degrade, not throw. */
export function mixedSchemaArbitrary(maxDepth = 4): fc.Arbitrary<unknown> {
  return schemaTree({ invalid: true, maxDepth });
}

/** Tool sets with awkward names (duplicates included), descriptions and schemas; output sometimes absent. */
export function toolSetArbitrary(
  options: { invalid?: boolean; maxTools?: number; maxDepth?: number } = {},
): fc.Arbitrary<ToolDefinition[]> {
  const schema =
    options.invalid === false ? validSchemaArbitrary(options.maxDepth) : mixedSchemaArbitrary(options.maxDepth);
  return fc.array(
    fc.record(
      {
        name: awkwardNameArbitrary,
        description: awkwardTextArbitrary,
        parameters: schema,
        output: schema,
      },
      { requiredKeys: ['name', 'description', 'parameters'] },
    ),
    { maxLength: options.maxTools ?? 8 },
  );
}
