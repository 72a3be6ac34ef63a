import { describe, expect, expectTypeOf, it } from 'vitest';
import type { JsonValue, RegisteredTool } from './index.js';
import { defineTool } from './index.js';

interface Order {
  id: string;
  total: number;
  lines: Array<{ sku: string; units: number }>;
  note?: string;
}

const ORDERS = new Map<string, Order>([['A1', { id: 'A1', total: 12.5, lines: [{ sku: 'mug', units: 2 }] }]]);

const getOrder = defineTool<{ id: string }, Order>({
  name: 'get_order',
  description: 'One order by id.',
  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
  output: {
    type: 'object',
    properties: { id: { type: 'string' }, total: { type: 'number' } },
    required: ['id', 'total'],
  },
  async execute({ id }) {
    expectTypeOf(id).toEqualTypeOf<string>();
    const order = ORDERS.get(id);
    if (!order) throw new Error(`no order ${id}`);
    return order;
  },
});

describe('defineTool', () => {
  it('takes typed arguments and a plain interface as the result, and gives the RegisteredTool a registry takes', async () => {
    expectTypeOf(getOrder).toEqualTypeOf<RegisteredTool>();
    expect(getOrder.name).toBe('get_order');
    expect(getOrder.parameters).toEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    });
    expect(getOrder.output).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, total: { type: 'number' } },
      required: ['id', 'total'],
    });
    expect(await getOrder.execute({ id: 'A1' })).toEqual({ id: 'A1', total: 12.5, lines: [{ sku: 'mug', units: 2 }] });
    await expect(getOrder.execute({ id: 'B2' })).rejects.toThrow('no order B2');
  });

  it('accepts a synchronous execute, and defaults to JSON values without type arguments', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echo.',
      parameters: { type: 'object' },
      execute: (args) => args,
    });
    expect(await echo.execute({ a: [1, null] })).toEqual({ a: [1, null] });
    const untyped = defineTool({
      name: 'n',
      description: 'N.',
      parameters: {},
      execute: (args: JsonValue) => ({ got: args }),
    });
    expect(await untyped.execute(3)).toEqual({ got: 3 });
  });

  it('refuses at compile time a result that cannot cross as JSON', () => {
    defineTool<{ at: string }, { when: Date }>({
      name: 'when',
      description: 'A Date does not survive JSON.',
      parameters: {},
      // @ts-expect-error a Date has methods: not a JSON shape
      execute: ({ at }) => ({ when: new Date(at) }),
    });
    defineTool<Record<string, never>, { run: () => void }>({
      name: 'fn',
      description: 'A function does not survive JSON.',
      parameters: {},
      // @ts-expect-error a function is not a JSON shape
      execute: () => ({ run: () => undefined }),
    });
  });
});
