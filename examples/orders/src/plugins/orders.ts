/**
 * An orders backend as a pydantic or OpenAPI service describes itself: five tools whose schemas each carry
 * the same `$defs.Money`. The plugin needs nothing but the `tools` service it registers into.
 */

interface Money {
  amount: number;
  currency: 'EUR' | 'USD';
}

interface Order {
  id: string;
  status: 'open' | 'shipped' | 'cancelled';
  total: Money;
  refunded: Money;
}

const MONEY = {
  type: 'object',
  description: 'An amount in minor units (cents) of one currency.',
  properties: {
    amount: { type: 'integer', description: 'Minor units: 1250 is 12.50.' },
    currency: { type: 'string', enum: ['EUR', 'USD'] },
  },
  required: ['amount', 'currency'],
  additionalProperties: false,
};

/** A root object schema carrying `$defs.Money`, as each tool of a pydantic service does. */
const withMoney = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
  $defs: { Money: MONEY },
});

const money = { $ref: '#/$defs/Money' };

const ORDERS: Record<string, Order> = {
  'ord-1001': {
    id: 'ord-1001',
    status: 'shipped',
    total: { amount: 4_250, currency: 'EUR' },
    refunded: { amount: 0, currency: 'EUR' },
  },
  'ord-1002': {
    id: 'ord-1002',
    status: 'open',
    total: { amount: 1_999, currency: 'EUR' },
    refunded: { amount: 0, currency: 'EUR' },
  },
};

function orderOf(args: unknown): Order {
  const id = (args as { id?: unknown } | null)?.id;
  const order = typeof id === 'string' && Object.hasOwn(ORDERS, id) ? ORDERS[id] : undefined;
  if (order === undefined) throw new Error(`unknown order ${JSON.stringify(id)}`);
  return order;
}

function moneyOf(value: unknown, currency: string): Money {
  const { amount, currency: given } = (value ?? {}) as { amount?: unknown; currency?: unknown };
  if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 0)
    throw new Error('amount must be a whole number of minor units');
  if (given !== currency) throw new Error(`the order is in ${currency}`);
  return { amount, currency };
}

const ORDER_FIELDS = {
  id: { type: 'string' },
  status: { type: 'string', enum: ['open', 'shipped', 'cancelled'] },
  total: money,
  refunded: money,
};

const orderOutput = withMoney(ORDER_FIELDS, ['id', 'status', 'total', 'refunded']);

/** A new order says when it was placed: a timestamp of the real clock, as a real backend returns it. */
const placedOutput = withMoney({ ...ORDER_FIELDS, placedAt: { type: 'string', format: 'date-time' } }, [
  'id',
  'status',
  'total',
  'refunded',
  'placedAt',
]);

const tools = [
  {
    name: 'get_order',
    description: 'One order by its id.',
    parameters: withMoney({ id: { type: 'string', description: 'The order id, e.g. ord-1001.' } }, ['id']),
    output: orderOutput,
    async execute(args: unknown) {
      return structuredClone(orderOf(args));
    },
  },
  {
    name: 'list_orders',
    description: 'Every order, newest last, optionally only those at or above a total.',
    parameters: withMoney({ minTotal: money }, []),
    output: withMoney(
      {
        orders: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'string' }, total: money },
            required: ['id', 'total'],
            additionalProperties: false,
          },
        },
      },
      ['orders'],
    ),
    async execute(args: unknown) {
      const min = (args as { minTotal?: Money } | null)?.minTotal;
      const orders = Object.values(ORDERS).filter((order) => min === undefined || order.total.amount >= min.amount);
      return { orders: orders.map(({ id, total }) => ({ id, total: { ...total } })) };
    },
  },
  {
    name: 'place_order',
    description: 'Places an order for one product and returns it.',
    parameters: withMoney({ product: { type: 'string' }, price: money }, ['product', 'price']),
    output: placedOutput,
    async execute(args: unknown) {
      const { product, price } = (args ?? {}) as { product?: unknown; price?: unknown };
      if (typeof product !== 'string' || product === '') throw new Error('product must be a name');
      const total = moneyOf(price, 'EUR');
      return {
        id: 'ord-1003',
        status: 'open',
        total,
        refunded: { amount: 0, currency: 'EUR' },
        placedAt: new Date().toISOString(),
      };
    },
  },
  {
    name: 'cancel_order',
    description: 'Cancels an open order; a shipped one must be refunded instead.',
    parameters: withMoney({ id: { type: 'string' } }, ['id']),
    output: orderOutput,
    async execute(args: unknown) {
      const order = orderOf(args);
      if (order.status !== 'open') throw new Error(`${order.id} is ${order.status}: refund it instead`);
      return { ...structuredClone(order), status: 'cancelled' };
    },
  },
  {
    name: 'refund_order',
    description: 'Refunds part or all of a shipped order.',
    parameters: withMoney({ id: { type: 'string' }, amount: money }, ['id', 'amount']),
    output: orderOutput,
    async execute(args: unknown) {
      const order = orderOf(args);
      const amount = moneyOf((args as { amount?: unknown }).amount, order.total.currency);
      if (amount.amount > order.total.amount - order.refunded.amount) throw new Error('more than is left to refund');
      return {
        ...structuredClone(order),
        refunded: { amount: order.refunded.amount + amount.amount, currency: order.total.currency },
      };
    },
  },
];

/** A cordis plugin: it needs the `tools` service and registers the orders tools into it. */
export default {
  name: 'orders',
  inject: ['tools'],
  apply(ctx: { tools: { register(tool: (typeof tools)[number]): unknown } }) {
    for (const tool of tools) ctx.tools.register(tool);
  },
};
