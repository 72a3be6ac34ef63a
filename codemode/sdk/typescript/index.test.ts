import { describe, expect, it } from 'vitest';
import { listChain, objectChain, oneOfChain } from '../../schema/deep-schemas.js';
import type { ToolDefinition } from '../../tools/types.js';
import { MAX_TYPE_DEPTH } from '../depth.js';
import { renderTypeScriptSdk } from './index.js';

/** The text between `type <name> = ` and the `;` that ends the alias. */
function aliasOf(sdk: string, name: string): string {
  const start = sdk.indexOf(`type ${name} = `);
  if (start < 0) throw new Error(`no alias ${name} in:\n${sdk}`);
  const body = sdk.slice(start + `type ${name} = `.length);
  return body.slice(0, body.indexOf(';\n\n') >= 0 ? body.indexOf(';\n\n') : body.lastIndexOf(';'));
}

/** The arguments type of a tool `t`: its alias's text, or what the signature says when the type is written there. */
function argsOf(parameters: unknown): string {
  const sdk = renderTypeScriptSdk([{ name: 't', description: '', parameters }]);
  if (sdk.includes('type TArgs = ')) return aliasOf(sdk, 'TArgs');
  return /^ {2}t\(args: (.*)\): Promise<unknown>;$/m.exec(sdk)![1]!;
}

describe('renderTypeScriptSdk: layout', () => {
  it('writes usage, ToolCallError, two types per tool and the tools constant', () => {
    const sdk = renderTypeScriptSdk([
      {
        name: 'search_docs',
        description: 'Find pages that mention a phrase.',
        parameters: {
          type: 'object',
          description: 'What to look for.',
          properties: { query: { type: 'string', description: 'The phrase.' }, limit: { type: 'integer' } },
          required: ['query'],
        },
        output: { type: 'array', items: { type: 'string' } },
      },
    ]);
    const usageEnd = sdk.indexOf('\n\ndeclare class');
    expect(
      sdk
        .slice(0, usageEnd)
        .split('\n')
        .every((line) => line.startsWith('// ')),
    ).toBe(true);
    expect(sdk.slice(0, usageEnd)).toMatch(/await tools\.name\(args\)/);
    expect(sdk.slice(0, usageEnd)).toMatch(/throws ToolCallError/);
    expect(sdk.slice(usageEnd + 2)).toBe(
      [
        'declare class ToolCallError extends Error {',
        '  readonly toolName: string;',
        '  readonly code?: string | number;',
        '  readonly data?: unknown;',
        '}',
        '',
        '/** What to look for. */',
        'type SearchDocsArgs = {',
        '  /** The phrase. */',
        '  query: string;',
        '  limit?: number;',
        '};',
        '',
        'declare const tools: {',
        '  /** Find pages that mention a phrase. */',
        '  search_docs(args: SearchDocsArgs): Promise<string[]>;',
        '};',
        '',
      ].join('\n'),
    );
  });

  it('declares an empty tools constant for an empty tool set', () => {
    expect(renderTypeScriptSdk([])).toMatch(/\ndeclare const tools: \{\};\n$/);
  });
});

describe('renderTypeScriptSdk: schemas', () => {
  it('maps the primitive types and an absent type', () => {
    expect(['string', 'number', 'integer', 'boolean', 'null'].map((type) => argsOf({ type }))).toEqual([
      'string',
      'number',
      'number',
      'boolean',
      'null',
    ]);
    expect(argsOf({ description: 'anything' })).toBe('unknown');
  });

  it('writes enum and const as literal unions, big integers with all digits', () => {
    expect(argsOf({ enum: ['a"b', 1e21, -2.5, true, null] })).toBe(
      '"a\\"b" | 1000000000000000000000 | -2.5 | true | null',
    );
    expect(argsOf({ type: 'integer', enum: [-(2 ** 70)] })).toBe('-1180591620717411300000');
    expect(argsOf({ const: 'x\u2028y' })).toBe('"x\\u2028y"');
    expect(argsOf({ const: null })).toBe('null');
  });

  it('writes oneOf as one flat union and groups unions used as array elements', () => {
    expect(argsOf({ oneOf: [{ type: 'string' }, { oneOf: [{ type: 'null' }, { enum: [1, 2] }] }] })).toBe(
      'string | null | 1 | 2',
    );
    expect(argsOf({ type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'number' }] } })).toBe(
      '(string | number)[]',
    );
    expect(argsOf({ type: 'array', items: { enum: ['a', 'b'] } })).toBe('("a" | "b")[]');
    expect(argsOf({ type: 'array', items: { enum: ['a'] } })).toBe('"a"[]');
    expect(argsOf({ type: 'array', items: { type: 'array' } })).toBe('unknown[][]');
  });

  it('writes each member of a union once, and unknown alone when an arm takes any value', () => {
    const uuid = { type: 'string', format: 'uuid' };
    const map = { type: 'object', additionalProperties: true };
    expect(argsOf({ type: 'array', items: { anyOf: [{ type: 'string' }, uuid, map] } })).toBe(
      '(string | Record<string, unknown>)[]',
    );
    expect(argsOf({ type: 'array', items: { anyOf: [{ type: 'string' }, uuid] } })).toBe('string[]');
    expect(argsOf({ anyOf: [{ type: 'integer' }, { type: 'number' }, { type: 'null' }, { type: 'null' }] })).toBe(
      'number | null',
    );
    expect(argsOf({ anyOf: [{ type: 'string' }, {}, { type: 'number' }] })).toBe('unknown');
    expect(argsOf({ type: 'array', items: { anyOf: [{ type: 'string' }, {}] } })).toBe('unknown[]');
    // Members too long to compare are written as they come.
    const inline = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } };
    expect(argsOf({ anyOf: [inline, { type: 'boolean' }, { type: 'boolean' }] })).toMatch(/^\{\n[\s\S]*\} \| boolean$/);
  });

  it('marks optional fields, quotes awkward keys and documents fields', () => {
    const text = argsOf({
      type: 'object',
      properties: {
        'a-b': { type: 'string', title: 'Dash */ key' },
        ['__proto__']: { type: 'number' },
        new: { type: 'boolean' },
        nested: { type: 'object', properties: { deep: { const: 1 } }, required: ['deep'] },
      },
      required: ['a-b', 'new'],
    });
    expect(text).toBe(
      [
        '{',
        '  /** Dash *\\/ key */',
        '  "a-b": string;',
        '  __proto__?: number;',
        '  new: boolean;',
        '  nested?: {',
        '    deep: 1;',
        '  };',
        '}',
      ].join('\n'),
    );
  });

  it('indents the fields of an object in a list, a union or a tuple one level, closing it under its field', () => {
    // Distinct objects: one structure met twice would be declared once under a name.
    const object = (key: string) => ({ type: 'object', properties: { [key]: { type: 'number' } }, required: [key] });
    const text = argsOf({
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'array', items: object('x') } },
        either: { oneOf: [object('y'), { type: 'string' }] },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, object('z')], items: false },
      },
      required: ['list', 'either', 'pair'],
    });
    expect(text).toBe(
      [
        '{',
        '  list: {',
        '    x: number;',
        '  }[][];',
        '  either: {',
        '    y: number;',
        '  } | string;',
        '  pair: [string, {',
        '    z: number;',
        '  }];',
        '}',
      ].join('\n'),
    );
  });

  it('adds an index signature only when additionalProperties is true', () => {
    const properties = { a: { type: 'string' } };
    expect(argsOf({ type: 'object', properties, additionalProperties: true })).toBe(
      '{\n  a?: string;\n  [key: string]: unknown;\n}',
    );
    expect(argsOf({ type: 'object', properties, additionalProperties: false })).toBe('{\n  a?: string;\n}');
    expect(argsOf({ type: 'object', properties })).toBe('{\n  a?: string;\n}');
    expect(argsOf({ type: 'object' })).toBe('Record<string, unknown>');
    expect(argsOf({ type: 'object', additionalProperties: true })).toBe('Record<string, unknown>');
    expect(argsOf({ type: 'object', properties: {}, additionalProperties: false })).toBe('Record<string, never>');
  });

  it('writes a root with no type, an absent output and a broken tool as unknown, without throwing', () => {
    const cyclic: Record<string, unknown> = { type: 'array' };
    cyclic.items = cyclic;
    const throwing = Object.defineProperty({}, 'type', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const tools = [
      { name: 'a', description: '', parameters: { type: 'date', format: 'uri' }, output: cyclic },
      { name: 'b', description: '', parameters: throwing },
      { name: 7, description: null, parameters: null },
    ] as unknown as ToolDefinition[];
    const sdk = renderTypeScriptSdk(tools);
    // An object that contains itself degrades where it closes the cycle: the array stays an array.
    // A root with a doc keeps its alias, where the doc is written.
    expect(sdk).toContain('/** format: uri */\ntype AArgs = unknown;');
    expect(sdk).toContain('  a(args: AArgs): Promise<unknown[]>;');
    expect(sdk).toContain('  b(args: unknown): Promise<unknown>;');
    expect(sdk).toContain('  "7"(args: unknown): Promise<unknown>;');
  });
});

describe('renderTypeScriptSdk: names and order', () => {
  // Each tool's arguments have a structure of their own, so each is declared under the tool's name.
  const tool = (name: string): ToolDefinition => ({
    name,
    description: '',
    parameters: { type: 'object', properties: { [name]: { type: 'string' } } },
  });

  it('quotes names that are not ASCII identifiers, and "new"', () => {
    const sdk = renderTypeScriptSdk(['exotic-name', 'new', 'get', 'café', '', 'a"b'].map(tool));
    expect(sdk).toContain('  "exotic-name"(args: ExoticNameArgs): Promise<unknown>;');
    expect(sdk).toContain('  "new"(args: NewArgs)');
    expect(sdk).toContain('  get(args: GetArgs)');
    expect(sdk).toContain('  "café"(args: CafeArgs)');
    expect(sdk).toContain('  ""(args: ToolArgs)');
    expect(sdk).toContain('  "a\\"b"(args: ABArgs)');
  });

  it('lists tools in code-unit order and gives colliding type names a suffix from their own tool', () => {
    const sdk = renderTypeScriptSdk(['search_docs', 'é', 'Zeta', 'search-docs', 'a'].map(tool));
    const members = sdk.slice(sdk.indexOf('declare const tools')).split('\n').slice(1, -2);
    expect(members).toEqual([
      '  Zeta(args: ZetaArgs): Promise<unknown>;',
      '  a(args: AArgs): Promise<unknown>;',
      '  "search-docs"(args: SearchDocs_d6fef2Args): Promise<unknown>;',
      '  search_docs(args: SearchDocs_67f0d1Args): Promise<unknown>;',
      '  "é"(args: EArgs): Promise<unknown>;',
    ]);
  });

  it('gives the same bytes for any input order, duplicate names included', () => {
    const tools: ToolDefinition[] = [
      { name: 'dup', description: 'first', parameters: { type: 'string' } },
      { name: 'dup', description: 'first', parameters: { type: 'number' } },
      { name: 'dup', description: 'second', parameters: { type: 'string' } },
      { name: 'other', description: '', parameters: {} },
    ];
    const expected = renderTypeScriptSdk(tools);
    for (const order of [
      [3, 2, 1, 0],
      [1, 3, 0, 2],
      [2, 0, 3, 1],
    ]) {
      expect(renderTypeScriptSdk(order.map((index) => tools[index]!))).toBe(expected);
    }
    // The same name three times (a broken set): ordered by what each renders to alone.
    expect(expected.match(/^ {2}dup\(args: \w+\)/gm)).toEqual([
      '  dup(args: number)',
      '  dup(args: string)',
      '  dup(args: string)',
    ]);
    expect(expected.indexOf('/** first */')).toBeLessThan(expected.indexOf('/** second */'));
  });
});

describe('renderTypeScriptSdk: depth and size', () => {
  const sdkOf = (parameters: unknown): string => renderTypeScriptSdk([{ name: 't', description: '', parameters }]);

  it('writes a 100,000-deep oneOf chain as one flat union', () => {
    const text = argsOf(oneOfChain(100_000));
    expect(text.split(' | ')).toHaveLength(100_001);
    expect(text.endsWith('null | string')).toBe(true);
  });

  it('caps a 20,000-deep list chain at the nesting limit', () => {
    expect(argsOf(listChain(20_000))).toBe(`unknown${'[]'.repeat(MAX_TYPE_DEPTH)}`);
    expect(argsOf(listChain(MAX_TYPE_DEPTH))).toBe(`string${'[]'.repeat(MAX_TYPE_DEPTH)}`);
  });

  it('caps a 4,000-deep single-field object chain at the nesting limit', () => {
    const text = argsOf(objectChain(4_000));
    expect(text.match(/next: /g)).toHaveLength(MAX_TYPE_DEPTH);
    expect(text).toContain(`${'  '.repeat(MAX_TYPE_DEPTH)}next: unknown;`);
    expect(argsOf(objectChain(MAX_TYPE_DEPTH))).toContain(`${'  '.repeat(MAX_TYPE_DEPTH)}next: string;`);
  });

  it('grows the text linearly with the depth of a chain and the number of tools', () => {
    const growth = (size: (n: number) => number, n: number): number => size(10 * n) / size(n);
    expect(growth((n) => sdkOf(oneOfChain(n)).length, 1_000)).toBeLessThan(11);
    const tools = (n: number): ToolDefinition[] =>
      Array.from({ length: n }, (_, index) => ({
        name: `tool_${index}`,
        description: 'd',
        parameters: objectChain(3),
      }));
    expect(growth((n) => renderTypeScriptSdk(tools(n)).length, 100)).toBeLessThan(11);
    for (const chain of [listChain, objectChain]) {
      expect(sdkOf(chain(20_000)).length).toBe(sdkOf(chain(2_000)).length);
    }
  });
});
