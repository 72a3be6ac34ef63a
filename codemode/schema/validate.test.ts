import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mixedSchemaArbitrary, validSchemaArbitrary } from './arbitrary.js';
import { listChain, objectChain, oneOfChain } from './deep-schemas.js';
import { SchemaError, assertValidSchema, isValidSchema, validateSchema } from './validate.js';

function paths(root: unknown): string[] {
  return validateSchema(root).map((violation) => violation.path);
}

function messageAt(root: unknown, path: string): string {
  const found = validateSchema(root).find((violation) => violation.path === path);
  if (found === undefined) throw new Error(`no violation at ${path}: ${JSON.stringify(validateSchema(root))}`);
  return found.message;
}

describe('validateSchema: accepted shapes', () => {
  it('accepts every keyword of the subset together with annotations', () => {
    const schema = {
      type: 'object',
      title: 'Query',
      description: 'what to search',
      properties: {
        text: { type: 'string', default: '', examples: ['a'] },
        limit: { type: 'integer', enum: [1, 10, 100] },
        mode: { const: 'fast' },
        tags: { type: 'array', items: { type: 'string' } },
        either: { oneOf: [{ type: 'number' }, { type: 'null' }], description: 'annotations may sit beside oneOf' },
        'a-b': { type: 'boolean' },
        anything: {},
      },
      required: ['text', 'a-b'],
      additionalProperties: false,
    };
    expect(validateSchema(schema)).toEqual([]);
    expect(isValidSchema(schema)).toBe(true);
  });

  it('accepts a shared sub-schema used twice (no cycle)', () => {
    const shared = { type: 'string' };
    expect(validateSchema({ type: 'object', properties: { a: shared, b: shared } })).toEqual([]);
  });

  it('walks a diamond of shared sub-schemas once per object, not once per path', () => {
    let node: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 200; level++) {
      node = { type: 'object', properties: { left: node, right: node } };
    }
    expect(validateSchema(node)).toEqual([]);
  });

  it('accepts keys such as __proto__ and constructor as ordinary field names', () => {
    const properties = JSON.parse('{"__proto__": {"type": "string"}, "constructor": {"type": "number"}}') as unknown;
    expect(validateSchema({ type: 'object', properties, required: ['__proto__'] })).toEqual([]);
  });
});

describe('validateSchema: violations and their paths', () => {
  it('rejects a root that is not a plain object', () => {
    for (const root of [null, 3, 'x', [], true, new Map()]) {
      expect(paths(root)).toEqual(['$']);
    }
  });

  it('reports unknown keywords at their own path, quoting non-identifier keys', () => {
    const schema = { type: 'object', properties: { 'a-b': { type: 'string', format: 'uri' } }, $schema: 'x' };
    expect(paths(schema)).toEqual(['$["$schema"]', '$.properties["a-b"].format']);
    expect(messageAt(schema, '$.properties["a-b"].format')).toMatch(/unknown keyword "format"/);
  });

  it('rejects an unknown or non-string type, hinting at oneOf for type arrays', () => {
    expect(messageAt({ type: 'date' }, '$.type')).toMatch(/type must be one of/);
    expect(messageAt({ type: ['string', 'null'] }, '$.type')).toMatch(/use oneOf/);
  });

  it('requires at least two oneOf arms and no sibling type', () => {
    expect(messageAt({ oneOf: [{ type: 'string' }] }, '$.oneOf')).toMatch(/at least 2 arms/);
    expect(messageAt({ oneOf: [] }, '$.oneOf')).toMatch(/at least 2 arms/);
    expect(messageAt({ oneOf: {} }, '$.oneOf')).toMatch(/array of schemas/);
    expect(messageAt({ type: 'string', oneOf: [{}, {}] }, '$')).toMatch(/oneOf cannot stand beside type/);
    expect(messageAt({ enum: [1], oneOf: [{}, {}] }, '$')).toMatch(/beside enum/);
  });

  it('checks every oneOf arm with its index in the path', () => {
    expect(paths({ oneOf: [{ type: 'string' }, 5, { items: true }] })).toEqual([
      '$.oneOf[1]',
      '$.oneOf[2]',
      '$.oneOf[2].items',
    ]);
  });

  it('allows only scalars in enum and const, finite numbers only', () => {
    expect(paths({ enum: ['a', 1, true, null] })).toEqual([]);
    expect(paths({ enum: [{}, [1], Number.NaN, Infinity] })).toEqual([
      '$.enum[0]',
      '$.enum[1]',
      '$.enum[2]',
      '$.enum[3]',
    ]);
    expect(messageAt({ const: { a: 1 } }, '$.const')).toMatch(/const values must be strings/);
    expect(messageAt({ enum: 'a' }, '$.enum')).toMatch(/array of scalars/);
    expect(messageAt({ enum: [] }, '$.enum')).toMatch(/at least one value/);
    expect(messageAt({ enum: ['a', 'b', 'a'] }, '$.enum[2]')).toMatch(/listed twice/);
    expect(paths({ enum: [1, '1', true, 'true', null, 'null'] })).toEqual([]);
  });

  it('checks enum and const values against a sibling type', () => {
    expect(messageAt({ type: 'integer', enum: [1, 1.5] }, '$.enum[1]')).toMatch(/does not fit the sibling type "integer"/);
    expect(messageAt({ type: 'string', const: 3 }, '$.const')).toMatch(/sibling type "string"/);
    expect(paths({ type: 'object', const: null })).toEqual(['$.const']);
    expect(paths({ type: 'number', enum: [1, 2.5] })).toEqual([]);
    expect(messageAt({ enum: [1], const: 1 }, '$')).toMatch(/exclude each other/);
  });

  it('requires string names in required, each declared in properties, none twice', () => {
    const schema = { type: 'object', properties: { a: {} }, required: ['a', 7, 'b', 'a'] };
    expect(validateSchema(schema)).toEqual([
      { path: '$.required[1]', message: expect.stringMatching(/must be strings/) as string },
      { path: '$.required[2]', message: expect.stringMatching(/"b" is required but not declared/) as string },
      { path: '$.required[3]', message: expect.stringMatching(/listed twice/) as string },
    ]);
    expect(messageAt({ type: 'object', required: ['a'] }, '$.required')).toMatch(/add properties/);
    expect(messageAt({ type: 'object', required: 'a' }, '$.required')).toMatch(/array of field names/);
    expect(paths({ type: 'object', required: [] })).toEqual([]);
  });

  it('accepts only booleans in additionalProperties', () => {
    expect(paths({ type: 'object', additionalProperties: true })).toEqual([]);
    expect(messageAt({ type: 'object', additionalProperties: {} }, '$.additionalProperties')).toMatch(/true or false/);
  });

  it('rejects tuple items and object/array keywords without their type', () => {
    expect(messageAt({ type: 'array', items: [{}] }, '$.items')).toMatch(/tuple/);
    expect(messageAt({ items: {} }, '$')).toMatch(/items needs type "array"/);
    expect(messageAt({ properties: {} }, '$')).toMatch(/need type "object"/);
    expect(messageAt({ type: 'string', additionalProperties: false }, '$')).toMatch(/need type "object"/);
    expect(messageAt({ type: 'object', properties: [] }, '$.properties')).toMatch(/mapping field names/);
  });

  it('checks annotation types but accepts any default', () => {
    expect(paths({ description: 1, title: null, examples: 'x', default: { any: [1] } })).toEqual([
      '$.description',
      '$.title',
      '$.examples',
    ]);
  });

  it('collects every violation of a tree, a node before its sub-schemas', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'array', items: { type: 'nope' } },
        b: { oneOf: [{ const: [] }, { type: 'string', x: 1 }] },
      },
      y: 2,
    };
    expect(paths(schema)).toEqual(['$.y', '$.properties.a.items.type', '$.properties.b.oneOf[0].const', '$.properties.b.oneOf[1].x']);
  });
});

describe('validateSchema: cycles and depth', () => {
  it('rejects a schema that contains itself, naming the path where the cycle closes', () => {
    const node: Record<string, unknown> = { type: 'array' };
    node.items = node;
    expect(validateSchema(node)).toEqual([{ path: '$.items', message: expect.stringMatching(/cycle/) as string }]);
  });

  it('rejects a cycle through oneOf and properties further down', () => {
    const inner: Record<string, unknown> = { type: 'object' };
    const outer = { oneOf: [{ type: 'null' }, inner] };
    inner.properties = { back: outer };
    expect(paths(outer)).toEqual(['$.oneOf[1].properties.back']);
  });

  it('walks a 100,000-deep schema without overflowing the stack', () => {
    let node: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 100_000; level++) node = { type: 'array', items: node };
    expect(validateSchema(node)).toEqual([]);

    let bad: Record<string, unknown> = { type: 'bogus' };
    for (let level = 0; level < 100_000; level++) bad = { oneOf: [{ type: 'null' }, bad] };
    const violations = validateSchema(bad);
    expect(violations).toHaveLength(1);
    expect(violations[0]!.path).toBe(`$${'.oneOf[1]'.repeat(100_000)}.type`);
  });

  it('finds a cycle at the bottom of a 100,000-deep chain', () => {
    const bottom: Record<string, unknown> = { type: 'object' };
    let node: Record<string, unknown> = bottom;
    for (let level = 0; level < 100_000; level++) node = { type: 'object', properties: { n: node } };
    bottom.properties = { top: node };
    const violations = validateSchema(node);
    expect(violations).toHaveLength(1);
    expect(violations[0]!.message).toMatch(/cycle/);
  });
});

describe('SchemaError', () => {
  it('lists every violation with its path in the message', () => {
    const error = new SchemaError(validateSchema({ type: 'x', properties: { 'a b': 1 } }), 'tool "t" parameters');
    expect(error.message).toBe(
      [
        'tool "t" parameters breaks the supported JSON-schema subset (3 violations):',
        '  $.type: type must be one of object, array, string, number, integer, boolean, null',
        '  $: properties need type "object" beside them',
        '  $.properties["a b"]: a schema must be a JSON object, not a number',
      ].join('\n'),
    );
    expect(error.violations).toHaveLength(3);
  });

  it('is thrown by assertValidSchema, which returns a valid root unchanged', () => {
    const root = { type: 'string' };
    expect(assertValidSchema(root)).toBe(root);
    expect(() => assertValidSchema({ type: 1 }, 'x.json')).toThrow(SchemaError);
    expect(() => assertValidSchema({ type: 1 }, 'x.json')).toThrow(/^x\.json breaks .*\n {2}\$\.type: /);
  });
});

describe('validateSchema: random schemas', () => {
  it('accepts every schema of the valid arbitrary', () => {
    fc.assert(
      fc.property(validSchemaArbitrary(), (schema) => {
        expect(validateSchema(schema)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on mixed schemas, and rejects some of them', () => {
    const samples = fc.sample(mixedSchemaArbitrary(), { numRuns: 300, seed: 7 });
    expect(samples.every((schema) => Array.isArray(validateSchema(schema)))).toBe(true);
    expect(samples.filter((schema) => !isValidSchema(schema)).length).toBeGreaterThan(30);
  });

  it('accepts the deep chains the renderers are measured on', () => {
    for (const schema of [oneOfChain(100_000), listChain(20_000), objectChain(4_000)]) {
      expect(validateSchema(schema)).toEqual([]);
    }
  });
});
