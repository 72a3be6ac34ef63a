import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerSchema } from './lower.js';
import { mixedSchemaArbitrary, validSchemaArbitrary } from './test/arbitrary.js';

const lower = (schema: unknown) => lowerSchema(schema);

describe('annotation and validation keywords', () => {
  it('never change a shape, and the useful ones become notes in the description', () => {
    const { schema, degradations } = lower({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'https://example.com/args',
      $comment: 'internal',
      type: 'object',
      properties: {
        limit: { type: 'integer', description: 'Page size.', minimum: 1, maximum: 100, default: 20, examples: [10] },
        since: { type: 'string', format: 'date-time', deprecated: true, readOnly: true },
        name: { type: 'string', minLength: 1, maxLength: 50, pattern: '^[a-z]+$' },
        ratio: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 },
        old: { type: 'number', minimum: 0, exclusiveMinimum: true },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
      },
      additionalProperties: false,
    });
    expect(degradations).toEqual([]);
    const fields = schema.properties!;
    expect(fields.limit).toEqual({ type: 'integer', description: 'Page size.\n1 ≤ value ≤ 100; default: 20' });
    expect(fields.since).toEqual({ type: 'string', description: 'deprecated; read-only; format: date-time' });
    expect(fields.name!.description).toBe('1 ≤ length ≤ 50; pattern: ^[a-z]+$');
    expect(fields.ratio!.description).toBe('value > 0; multiple of 0.5');
    expect(fields.old!.description).toBe('value > 0');
    expect(fields.tags).toEqual({ type: 'array', items: { type: 'string' }, description: 'items ≥ 1; unique items' });
    expect(schema.additionalProperties).toBe(false);
  });

  it('leave out a bound at ±(2^53 − 1), the edge of exact JSON integers, and keep one a step inside or past it', () => {
    const note = (minimum: number, maximum: number) =>
      lower({ type: 'integer', minimum, maximum }).schema.description ?? '';
    const edge = Number.MAX_SAFE_INTEGER;
    expect(note(1, edge)).toBe('value ≥ 1');
    expect(note(-edge, 0)).toBe('value ≤ 0');
    expect(note(-edge, edge)).toBe('');
    expect(note(1, edge - 1)).toBe(`1 ≤ value ≤ ${edge - 1}`);
    expect(note(1 - edge, 0)).toBe(`${1 - edge} ≤ value ≤ 0`);
    expect(note(1, edge + 1)).toBe(`1 ≤ value ≤ ${edge + 1}`);
    expect(note(-edge - 1, 0)).toBe(`${-edge - 1} ≤ value ≤ 0`);
    // At the other side's edge a bound excludes nearly every integer, and an exclusive one the edge itself.
    expect(lower({ type: 'integer', minimum: edge }).schema.description).toBe(`value ≥ ${edge}`);
    expect(lower({ type: 'integer', maximum: -edge }).schema.description).toBe(`value ≤ ${-edge}`);
    expect(lower({ type: 'integer', exclusiveMaximum: edge }).schema.description).toBe(`value < ${edge}`);
    expect(lower({ type: 'integer', maximum: edge, exclusiveMaximum: true }).schema.description).toBe(
      `value < ${edge}`,
    );
  });

  it('write the notes in one order whatever the order of the keys', () => {
    const a = lower({ type: 'integer', maximum: 9, default: 3, minimum: 1, format: 'int32' });
    const b = lower({ format: 'int32', minimum: 1, default: 3, type: 'integer', maximum: 9 });
    expect(a.schema).toEqual(b.schema);
  });
});

describe('unions', () => {
  it('anyOf and oneOf are unions; a null arm, a type list and OpenAPI nullable make a value nullable', () => {
    expect(lower({ anyOf: [{ type: 'string' }, { type: 'null' }], default: null }).schema).toEqual({
      oneOf: [{ type: 'string' }, { type: 'null' }],
      description: 'default: null',
    });
    expect(lower({ type: ['integer', 'null'], minimum: 0 }).schema).toEqual({
      oneOf: [{ type: 'integer' }, { type: 'null' }],
      description: 'value ≥ 0',
    });
    expect(lower({ type: 'string', nullable: true }).schema).toEqual({ oneOf: [{ type: 'string' }, { type: 'null' }] });
  });

  it('arms that only constrain leave the shape beside them; shaped arms take it in', () => {
    const constrained = lower({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      anyOf: [{ required: ['a'] }, { required: ['b'] }],
    });
    expect(constrained.schema.properties).toBeDefined();
    expect(constrained.schema.oneOf).toBeUndefined();
    const shaped = lower({
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      oneOf: [{ properties: { a: { type: 'integer' } } }, { properties: { b: { type: 'integer' } } }],
    });
    expect(shaped.schema.oneOf!.map((arm) => Object.keys(arm.properties!))).toEqual([
      ['id', 'a'],
      ['id', 'b'],
    ]);
  });

  it('keeps the tag of a discriminated union as a literal', () => {
    const { schema, degradations } = lower({
      oneOf: [{ $ref: '#/$defs/Cat' }, { $ref: '#/$defs/Dog' }],
      discriminator: { propertyName: 'pet_type', mapping: { cat: '#/$defs/Cat', dog: '#/$defs/Dog' } },
      $defs: {
        Cat: { type: 'object', properties: { pet_type: { const: 'cat', title: 'Pet Type' } }, required: ['pet_type'] },
        Dog: { type: 'object', properties: { pet_type: { enum: ['dog'] } }, required: ['pet_type'] },
      },
    });
    expect(degradations).toEqual([]);
    expect(schema).toEqual({ oneOf: [{ $ref: '#/$defs/Cat' }, { $ref: '#/$defs/Dog' }] });
  });

  it('pins the tag an OpenAPI discriminator names only in its mapping or by the schema name', () => {
    const { schema, degradations } = lower({
      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
      discriminator: { propertyName: 'petType', mapping: { kitty: '#/components/schemas/Cat' } },
      components: {
        schemas: {
          Pet: {
            type: 'object',
            properties: { petType: { type: 'string', description: 'The kind.' } },
            required: ['petType'],
          },
          Cat: {
            allOf: [
              { $ref: '#/components/schemas/Pet' },
              { type: 'object', properties: { lives: { type: 'integer' } } },
            ],
          },
          Dog: { type: 'object', properties: { petType: { type: 'string' } } },
        },
      },
    });
    expect(degradations).toEqual([]);
    expect(schema.oneOf!.map((arm) => arm.properties!.petType)).toEqual([
      { const: 'kitty', description: 'The kind.' },
      { const: 'Dog' },
    ]);
    expect(schema.oneOf!.map((arm) => arm.required)).toEqual([['petType'], ['petType']]);
  });

  it('enums and consts of mixed scalar types stay literals; object values degrade only that node', () => {
    expect(lower({ enum: ['a', 1, true, null, 'a'] }).schema).toEqual({ enum: ['a', 1, true, null] });
    const { schema, degradations } = lower({ type: 'object', properties: { a: { enum: [{}, 1] }, b: { const: 'x' } } });
    expect(schema.properties!.a).toEqual({});
    expect(schema.properties!.b).toEqual({ const: 'x' });
    expect(degradations).toEqual([
      { path: '$.properties.a.enum[0]', message: 'an enum value that is an object or array has no literal type' },
    ]);
  });
});

describe('allOf', () => {
  it('merges objects (references followed), and drops arms that only constrain', () => {
    const { schema, degradations } = lower({
      definitions: { Base: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
      allOf: [
        { $ref: '#/definitions/Base' },
        { type: 'object', properties: { name: { type: 'string' } } },
        { required: ['name'] },
      ],
      description: 'A named thing.',
    });
    expect(degradations).toEqual([]);
    expect(schema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, name: { type: 'string' } },
      required: ['id', 'name'],
      description: 'A named thing.',
    });
  });

  it('keeps a single referenced arm as a reference (pydantic v1 writes fields this way)', () => {
    const { schema } = lower({
      type: 'object',
      properties: { a: { allOf: [{ $ref: '#/definitions/A' }], description: 'An A.' } },
      definitions: { A: { type: 'string' } },
    });
    expect(schema.properties!.a).toEqual({ $ref: '#/definitions/A', description: 'An A.' });
  });

  it('degrades only the node whose arms do not merge, naming it', () => {
    const { schema, degradations } = lower({
      type: 'object',
      properties: { a: { allOf: [{ type: 'string' }, { type: 'integer' }] }, b: { type: 'string' } },
    });
    expect(schema.properties!.b).toEqual({ type: 'string' });
    expect(schema.properties!.a).toEqual({});
    expect(degradations.map((d) => d.path)).toEqual(['$.properties.a']);
  });
});

describe('references', () => {
  it('resolves #/$defs, #/definitions and #, names definitions, and marks recursion', () => {
    const { schema, definitions, degradations } = lower({
      title: 'Tree',
      type: 'object',
      properties: {
        root: { $ref: '#/$defs/Node' },
        old: { $ref: '#/definitions/Legacy' },
        again: { $ref: '#' },
      },
      $defs: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
      definitions: { Legacy: { title: 'Old style', type: 'string' } },
    });
    expect(degradations).toEqual([]);
    expect(schema.properties!.root).toEqual({ $ref: '#/$defs/Node' });
    expect([...definitions.values()].map(({ key, name, recursive }) => ({ key, name, recursive }))).toEqual([
      { key: '#/$defs/Node', name: 'Node', recursive: true },
      { key: '#/definitions/Legacy', name: 'Legacy', recursive: false },
      { key: '#', name: 'Tree', recursive: true },
    ]);
  });

  it('degrades a definition that is only itself, a missing target and a remote reference, each at its path', () => {
    const { degradations } = lower({
      type: 'object',
      properties: {
        loop: { $ref: '#/$defs/A' },
        missing: { $ref: '#/$defs/Nope' },
        remote: { $ref: 'https://example.com/x.json' },
      },
      $defs: { A: { anyOf: [{ $ref: '#/$defs/B' }, { type: 'null' }] }, B: { $ref: '#/$defs/A' } },
    });
    expect(degradations.map((d) => d.path).sort()).toEqual([
      '$.$defs.A',
      '$.$defs.B',
      '$.properties.missing["$ref"]',
      '$.properties.remote["$ref"]',
    ]);
  });

  it('resolves escaped pointers into any part of the document (zod-to-json-schema writes them)', () => {
    const { schema, definitions } = lower({
      type: 'object',
      properties: {
        'a/b': { type: 'object', properties: { x: { type: 'integer' } } },
        c: { $ref: '#/properties/a~1b' },
      },
    });
    expect(schema.properties!.c).toEqual({ $ref: '#/properties/a~1b' });
    expect(definitions.get('#/properties/a~1b')!.schema).toBe(schema.properties!['a/b']);
  });

  it('walks a chain of 20,000 definitions and a 100,000-deep anyOf chain without recursion', () => {
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++)
      $defs[`D${i}`] = { type: 'object', properties: { next: { $ref: `#/$defs/D${(i + 1) % 20_000}` } } };
    const chain = lower({ $ref: '#/$defs/D0', $defs });
    expect(chain.definitions.size).toBe(20_000);
    expect([...chain.definitions.values()].every((d) => d.recursive)).toBe(true);
    let node: unknown = { type: 'string' };
    for (let i = 0; i < 100_000; i++) node = { anyOf: [{ type: 'null' }, node], description: 'level' };
    expect(lower(node).degradations).toEqual([]);
  });
});

describe('arrays and maps', () => {
  it('reads tuples in both spellings, closed by items: false or by maxItems', () => {
    expect(
      lower({ type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }], items: false }).schema,
    ).toEqual({
      type: 'array',
      prefixItems: [{ type: 'integer' }, { type: 'string' }],
      closed: true,
    });
    expect(lower({ type: 'array', items: [{ type: 'integer' }], maxItems: 1, minItems: 1 }).schema).toMatchObject({
      prefixItems: [{ type: 'integer' }],
      closed: true,
    });
    expect(lower({ type: 'array', items: [{ type: 'integer' }], additionalItems: { type: 'string' } }).schema).toEqual({
      type: 'array',
      prefixItems: [{ type: 'integer' }],
      items: { type: 'string' },
    });
  });

  it('reads additionalProperties and patternProperties schemas as map values', () => {
    expect(lower({ type: 'object', additionalProperties: { type: 'number' } }).schema).toEqual({
      type: 'object',
      additionalProperties: { type: 'number' },
    });
    expect(
      lower({ patternProperties: { '^a': { type: 'string' }, '^b': { type: 'integer' } }, additionalProperties: false })
        .schema,
    ).toEqual({
      type: 'object',
      additionalProperties: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    });
  });
});

describe('any input', () => {
  it('lowers the typed arbitrary with no degradation', () => {
    fc.assert(
      fc.property(validSchemaArbitrary(), (schema) => {
        expect(lowerSchema(schema).degradations).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws, on broken schemas, a self-containing object or a getter that throws', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(lower(cyclic).degradations).toEqual([
      { path: '$.properties.self', message: 'this schema object contains itself; use $ref for recursion' },
    ]);
    const throwing = Object.defineProperty({}, 'type', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    expect(lower(throwing).degradations).toEqual([{ path: '$', message: 'the schema could not be read: boom' }]);
    for (const schema of fc.sample(mixedSchemaArbitrary(), { numRuns: 300, seed: 7 }))
      expect(() => lowerSchema(schema)).not.toThrow();
  });
});
