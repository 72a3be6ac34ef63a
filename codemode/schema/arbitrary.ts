/**
 * fast-check arbitraries for property tests of anything that reads schemas or tool sets (both SDK
 * renderers, the validator). Values aim at the awkward: names and text that break comments, strings and
 * identifiers; big and fractional numbers; and, in the mixed flavour, nodes that break the subset.
 */
import fc from 'fast-check';
import type { ToolDefinition } from '../tools/types.js';
import type { JsonSchema, SchemaScalar } from './types.js';

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

const annotationsArbitrary: fc.Arbitrary<Partial<JsonSchema>> = fc.record(
  {
    description: awkwardTextArbitrary,
    title: awkwardTextArbitrary,
    default: fc.jsonValue({ maxDepth: 2 }),
    examples: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

const leafArbitrary: fc.Arbitrary<JsonSchema> = fc.oneof(
  fc.constantFrom<JsonSchema>({ type: 'string' }, { type: 'number' }, { type: 'integer' }, { type: 'boolean' }, { type: 'null' }, {}),
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
      { type: 'string', format: 'email' },
      { $ref: '#/definitions/x' },
      { type: 'object', additionalProperties: {} },
      { type: 'object', properties: {}, required: ['missing'] },
      { type: 'object', required: [1] },
      { type: 'array', items: [] },
      { properties: {} },
    ),
    schema.map((arm) => ({ oneOf: [arm] })),
    fc.tuple(schema, schema).map(([a, b]) => ({ type: 'string', oneOf: [a, b] })),
    schema.map((items) => ({ items })),
  );
}

function schemaTree(options: { invalid: boolean; maxDepth: number }): fc.Arbitrary<unknown> {
  const { tree } = fc.letrec((tie) => {
    const node = tie('tree');
    const object = fc
      .uniqueArray(fc.tuple(awkwardNameArbitrary, node), { selector: ([name]) => name, maxLength: 5, depthIdentifier: 'schema' })
      .chain((fields) => {
        const names = fields.map(([name]) => name);
        return fc.record(
          {
            required: fc.subarray(names),
            additionalProperties: fc.boolean(),
          },
          { requiredKeys: [] },
        ).map((extra) => ({ type: 'object', properties: Object.fromEntries(fields), ...extra }));
      });
    const array = fc.option(node, { nil: undefined }).map((items) => (items === undefined ? { type: 'array' } : { type: 'array', items }));
    const oneOf = fc.array(node, { minLength: 2, maxLength: 4, depthIdentifier: 'schema' }).map((arms) => ({ oneOf: arms }));
    const shapes: fc.Arbitrary<unknown>[] = [leafArbitrary, object, array, oneOf];
    if (options.invalid) shapes.push(brokenArbitrary(node));
    const annotated = fc
      .tuple(fc.oneof({ maxDepth: options.maxDepth, depthIdentifier: 'schema', withCrossShrink: true }, ...shapes), annotationsArbitrary)
      .map(([shape, annotations]) =>
        typeof shape === 'object' && shape !== null && !Array.isArray(shape) ? { ...annotations, ...shape } : shape,
      );
    return { tree: annotated };
  });
  return tree;
}

/** Schemas the subset accepts (`validateSchema` returns no violation for any of them). */
export function validSchemaArbitrary(maxDepth = 4): fc.Arbitrary<JsonSchema> {
  return schemaTree({ invalid: false, maxDepth }) as fc.Arbitrary<JsonSchema>;
}

/** Schemas that may break the subset anywhere (often they do not): renderers must degrade, not throw. */
export function mixedSchemaArbitrary(maxDepth = 4): fc.Arbitrary<unknown> {
  return schemaTree({ invalid: true, maxDepth });
}

/** Tool sets with awkward names (duplicates included), descriptions and schemas; output sometimes absent. */
export function toolSetArbitrary(options: { invalid?: boolean; maxTools?: number; maxDepth?: number } = {}): fc.Arbitrary<ToolDefinition[]> {
  const schema = options.invalid === false ? validSchemaArbitrary(options.maxDepth) : mixedSchemaArbitrary(options.maxDepth);
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
