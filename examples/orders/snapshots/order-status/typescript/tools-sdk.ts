// The tools are async methods of the global `tools`: `const result = await tools.name(args);`, a quoted
// name with brackets: `await tools["some-name"](args)`. Arguments and results are plain JSON data.
// A failed call throws ToolCallError: `message` says why; `toolName`, `code` and `data` say more.

declare class ToolCallError extends Error {
  readonly toolName: string;
  readonly code?: string | number;
  readonly data?: unknown;
}

/** An amount in minor units (cents) of one currency. */
type Money = {
  /** Minor units: 1250 is 12.50. */
  amount: number;
  currency: "EUR" | "USD";
};

type CancelOrderArgs = {
  id: string;
};

type OrderOutput = {
  id: string;
  status: "open" | "shipped" | "cancelled";
  total: Money;
  refunded: Money;
};

type GetOrderArgs = {
  /** The order id, e.g. ord-1001. */
  id: string;
};

type ListOrdersArgs = {
  minTotal?: Money;
};

type ListOrdersOutput = {
  orders: {
    id: string;
    total: Money;
  }[];
};

type PlaceOrderArgs = {
  product: string;
  price: Money;
};

type PlaceOrderOutput = {
  id: string;
  status: "open" | "shipped" | "cancelled";
  total: Money;
  refunded: Money;
  /** format: date-time */
  placedAt: string;
};

type RefundOrderArgs = {
  id: string;
  amount: Money;
};

declare const tools: {
  /** Cancels an open order; a shipped one must be refunded instead. */
  cancel_order(args: CancelOrderArgs): Promise<OrderOutput>;
  /** One order by its id. */
  get_order(args: GetOrderArgs): Promise<OrderOutput>;
  /** Every order, newest last, optionally only those at or above a total. */
  list_orders(args: ListOrdersArgs): Promise<ListOrdersOutput>;
  /** Places an order for one product and returns it. */
  place_order(args: PlaceOrderArgs): Promise<PlaceOrderOutput>;
  /** Refunds part or all of a shipped order. */
  refund_order(args: RefundOrderArgs): Promise<OrderOutput>;
};
