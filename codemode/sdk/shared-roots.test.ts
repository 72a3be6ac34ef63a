import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../tools/types.js';
import { renderPythonSdk } from './python/index.js';
import { type RootUse, sharedRootNames } from './shared-roots.js';
import { renderTypeScriptSdk } from './typescript/index.js';

/** An order as several tools return it: a fresh object each time, so only its structure is shared. */
const order = () => ({
  type: 'object',
  properties: { id: { type: 'string' }, status: { enum: ['open', 'cancelled'] }, total: { type: 'integer' } },
  required: ['id', 'status'],
});

const returning = (name: string, output: unknown = order()): ToolDefinition => ({
  name,
  description: `${name}.`,
  parameters: { type: 'object', properties: { [`${name}_note`]: { type: 'string' } } },
  output,
});

const languages = [
  { language: 'Python', render: (tools: ToolDefinition[]) => renderPythonSdk(tools), returns: ') -> ' },
  { language: 'TypeScript', render: (tools: ToolDefinition[]) => renderTypeScriptSdk(tools), returns: '): Promise<' },
] as const;

/** The type each tool returns, as the SDK's signature says it. */
function returnTypes(sdk: string, returns: string): Record<string, string> {
  const types: Record<string, string> = {};
  for (const match of sdk.matchAll(/^ *(?:async def )?(\w+)\((?:self, )?args: \w+(\) -> |\): Promise<)(\w+)/gm)) {
    if (match[2] === returns) types[match[1]!] = match[3]!;
  }
  return types;
}

describe('a type that is the whole result of several tools', () => {
  for (const { language, render, returns } of languages) {
    it(`is named in ${language} after the last word all their names end in, not after one of them`, () => {
      const sdk = render(['get_order', 'cancelOrder', 'API-refund-order'].map((name) => returning(name)));
      expect(returnTypes(sdk, returns)).toEqual({
        cancelOrder: 'OrderOutput',
        get_order: 'OrderOutput',
      });
      expect(sdk).toContain('"API-refund-order"');
      expect(sdk).toMatch(/"API-refund-order"\]?\(args: \w+\)(?: -> |: Promise<)OrderOutput/);
      expect(sdk).not.toMatch(/CancelOrderOutput|GetOrderOutput/);
    });

    it(`is named in ${language} after its one field when the names share no last word`, () => {
      const content = () => ({ type: 'object', properties: { content: { type: 'string' } }, required: ['content'] });
      const sdk = render([returning('read_file', content()), returning('list_directory', content())]);
      expect(returnTypes(sdk, returns)).toEqual({ list_directory: 'ContentOutput', read_file: 'ContentOutput' });
    });

    it(`keeps in ${language} the name of its first tool when nothing is true of them all`, () => {
      // Three fields, and a last word most of them end in but not all: `OrderOutput` would be false of lookup.
      const sdk = render([returning('get_order'), returning('lookup'), returning('cancel_order')]);
      expect(returnTypes(sdk, returns)).toEqual({
        cancel_order: 'CancelOrderOutput',
        get_order: 'CancelOrderOutput',
        lookup: 'CancelOrderOutput',
      });
    });

    it(`keeps in ${language} a tool's own type name when another tool has it`, () => {
      // `order` returns something else under `OrderOutput`: the shared result cannot take that name too.
      const other = { type: 'object', properties: { placed: { type: 'boolean' } } };
      const sdk = render([returning('get_order'), returning('cancel_order'), returning('order', other)]);
      expect(returnTypes(sdk, returns)).toEqual({
        cancel_order: 'CancelOrderOutput',
        get_order: 'CancelOrderOutput',
        order: 'OrderOutput',
      });
    });

    it(`takes in ${language} the name of a tool it is the result of`, () => {
      const sdk = render([returning('get_order'), returning('order')]);
      expect(returnTypes(sdk, returns)).toEqual({ get_order: 'OrderOutput', order: 'OrderOutput' });
    });

    it(`is named in ${language} as arguments when several tools take it, and left alone when some return it`, () => {
      const byId = () => ({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });
      const taking = (name: string): ToolDefinition => ({ name, description: '', parameters: byId() });
      expect(render([taking('get_order'), taking('cancel_order')])).toMatch(/get_order\(.*args: OrderArgs\)/);
      expect(render([taking('get_user'), taking('delete_page')])).toMatch(/get_user\(.*args: IdArgs\)/);
      // Returned by one tool and taken by another: neither `Args` nor `Output` would be true of both, so it keeps
      // the name it has where it is met first, cancel_order's result.
      const mixed = render([taking('get_order'), returning('cancel_order', byId())]);
      expect(mixed).toMatch(/get_order\(.*args: CancelOrderOutput\)/);
    });
  }
});

describe('sharedRootNames', () => {
  const use = (toolName: string, structure: number | undefined, fields: string[] = ['a', 'b']): RootUse => ({
    toolName,
    role: 'Output',
    ownName: `${toolName}Output`,
    structure,
    root: {
      schema: { type: 'object', properties: Object.fromEntries(fields.map((field) => [field, {}])) },
      definitions: new Map(),
      degradations: [],
    },
  });
  const name = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`;

  it('names only structures two or more roots share', () => {
    expect(sharedRootNames([use('get_order', 1), use('cancel_order', 2)], name, new Set())).toEqual(new Map());
    expect(sharedRootNames([use('get_order', 1), use('cancel_order', 1)], name, new Set())).toEqual(
      new Map([[1, 'OrderOutput']]),
    );
    expect(sharedRootNames([use('get_order', undefined), use('cancel_order', undefined)], name, new Set())).toEqual(
      new Map(),
    );
  });

  it('reads the last word across snake, kebab and camel case, and not a word that starts with a digit', () => {
    const uses = [use('getOrder', 1), use('API-cancel-order', 1), use('refund_ORDER', 1)];
    expect(sharedRootNames(uses, name, new Set()).get(1)).toBe('OrderOutput');
    expect(sharedRootNames([use('get_v2', 1), use('list_v2', 1)], name, new Set()).get(1)).toBe('V2Output');
    expect(sharedRootNames([use('get_2', 1), use('list_2', 1)], name, new Set())).toEqual(new Map());
  });

  it('gives one name once: a second structure that would take it keeps its first tool', () => {
    const uses = [use('get_order', 1), use('cancel_order', 1), use('refund_order', 2), use('ship_order', 2)];
    expect(sharedRootNames(uses, name, new Set())).toEqual(new Map([[1, 'OrderOutput']]));
    expect(sharedRootNames(uses, name, new Set(['OrderOutput']))).toEqual(new Map());
  });

  it('says the role once when the word is the role', () => {
    const uses = [use('read', 1, ['output']), use('lookup', 1, ['output'])];
    expect(sharedRootNames(uses, name, new Set()).get(1)).toBe('Output');
  });

  it('leaves a structure alone when the language cannot make a name of the word', () => {
    expect(sharedRootNames([use('get_order', 1), use('cancel_order', 1)], () => undefined, new Set())).toEqual(
      new Map(),
    );
  });
});
