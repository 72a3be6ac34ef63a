import { defineTool, type GatedServices } from 'concord/contract';

/** The shop's stock: item → units on the shelf, and the level below which it is reordered. */
const STOCK: Record<string, { units: number; reorderBelow: number }> = {
  'blue mug': { units: 4, reorderBelow: 10 },
  'tea towel': { units: 25, reorderBelow: 5 },
  teapot: { units: 0, reorderBelow: 2 },
};

interface StockLine {
  item: string;
  units: number;
  reorderBelow: number;
}

interface ReorderArgs {
  item: string;
  units: number;
}

interface PurchaseOrder {
  order: string;
  item: string;
  units: number;
}

// The types are the plugin's own; parameters and output stay the JSON Schemas the model reads.
const listStock = defineTool<Record<string, never>, { items: StockLine[] }>({
  name: 'list_stock',
  description: 'Every item in the shop with the units on the shelf and the level below which it is reordered.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  output: {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        items: {
          type: 'object',
          properties: { item: { type: 'string' }, units: { type: 'integer' }, reorderBelow: { type: 'integer' } },
          required: ['item', 'units', 'reorderBelow'],
          additionalProperties: false,
        },
      },
    },
    required: ['items'],
    additionalProperties: false,
  },
  async execute() {
    return { items: Object.entries(STOCK).map(([item, { units, reorderBelow }]) => ({ item, units, reorderBelow })) };
  },
});

const reorder = defineTool<ReorderArgs, PurchaseOrder>({
  name: 'reorder',
  description: 'Orders more units of one item from the supplier and returns the order number.',
  parameters: {
    type: 'object',
    properties: {
      item: { type: 'string', description: 'The item, as list_stock names it.' },
      units: { type: 'integer', description: 'How many units to order, at least 1.' },
    },
    required: ['item', 'units'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: { order: { type: 'string' }, item: { type: 'string' }, units: { type: 'integer' } },
    required: ['order', 'item', 'units'],
    additionalProperties: false,
  },
  async execute({ item, units }) {
    // The program's arguments are JSON that the schema describes but nothing enforces: check what matters.
    if (typeof item !== 'string' || !(item in STOCK)) throw new Error(`reorder: unknown item ${JSON.stringify(item)}`);
    if (typeof units !== 'number' || !Number.isInteger(units) || units < 1)
      throw new Error('reorder: units must be a whole number of at least 1');
    return { order: `PO-${item.replace(/\W+/g, '-').toUpperCase()}-${units}`, item, units };
  },
});

/** A cordis plugin: it needs the `tools` service and registers the shop's tools into it. */
export default {
  name: 'inventory',
  inject: ['tools'],
  apply(ctx: Pick<GatedServices, 'tools'>) {
    for (const tool of [listStock, reorder]) ctx.tools.register(tool);
  },
};
