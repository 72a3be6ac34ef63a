// Each tool below is an async method of the global `tools` object. Call it with one arguments
// object and await the result: `const result = await tools.name(args);`. A tool whose name is
// quoted below is called with brackets: `await tools["some-name"](args)`.
// A call that fails throws a ToolCallError: `message` says why, `toolName` which tool failed, and
// `code` and `data` carry what the tool gave with its error.
// Arguments and results are plain JSON data; the types below describe their shape.

declare class ToolCallError extends Error {
  /** The name of the tool whose call failed. */
  readonly toolName: string;
  /** The code the tool gave with its error (such as "card_declined"), if any. */
  readonly code?: string | number;
  /** JSON data the tool gave with its error, if any. */
  readonly data?: unknown;
}

type CancelOrderArgs = {
  id: string;
};

type CancelOrderOutput = {
  id: string;
  status: "open" | "shipped" | "cancelled";
  total: CancelOrder_Money;
  refunded: CancelOrder_Money;
};

/** An amount in minor units (cents) of one currency. */
type CancelOrder_Money = {
  /** Minor units: 1250 is 12.50. */
  amount: number;
  currency: "EUR" | "USD";
};

type GetOrderArgs = {
  /** The order id, e.g. ord-1001. */
  id: string;
};

type GetOrderOutput = {
  id: string;
  status: "open" | "shipped" | "cancelled";
  total: GetOrder_Money;
  refunded: GetOrder_Money;
};

/** An amount in minor units (cents) of one currency. */
type GetOrder_Money = {
  /** Minor units: 1250 is 12.50. */
  amount: number;
  currency: "EUR" | "USD";
};

type ListOrdersArgs = {
  minTotal?: ListOrders_Money;
};

/** An amount in minor units (cents) of one currency. */
type ListOrders_Money = {
  /** Minor units: 1250 is 12.50. */
  amount: number;
  currency: "EUR" | "USD";
};

type ListOrdersOutput = {
  orders: {
      id: string;
      total: ListOrders_Money2;
    }[];
};

/** An amount in minor units (cents) of one currency. */
type ListOrders_Money2 = {
  /** Minor units: 1250 is 12.50. */
  amount: number;
  currency: "EUR" | "USD";
};

type PlaceOrderArgs = {
  product: string;
  price: PlaceOrder_Money;
};

/** An amount in minor units (cents) of one currency. */
type PlaceOrder_Money = {
  /** Minor units: 1250 is 12.50. */
  amount: number;
  currency: "EUR" | "USD";
};

type PlaceOrderOutput = {
  id: string;
  status: "open" | "shipped" | "cancelled";
  total: PlaceOrder_Money2;
  refunded: PlaceOrder_Money2;
  /** format: date-time */
  placedAt: string;
};

/** An amount in minor units (cents) of one currency. */
type PlaceOrder_Money2 = {
  /** Minor units: 1250 is 12.50. */
  amount: number;
  currency: "EUR" | "USD";
};

type RefundOrderArgs = {
  id: string;
  amount: RefundOrder_Money;
};

/** An amount in minor units (cents) of one currency. */
type RefundOrder_Money = {
  /** Minor units: 1250 is 12.50. */
  amount: number;
  currency: "EUR" | "USD";
};

type RefundOrderOutput = {
  id: string;
  status: "open" | "shipped" | "cancelled";
  total: RefundOrder_Money2;
  refunded: RefundOrder_Money2;
};

/** An amount in minor units (cents) of one currency. */
type RefundOrder_Money2 = {
  /** Minor units: 1250 is 12.50. */
  amount: number;
  currency: "EUR" | "USD";
};

declare const tools: {
  /** Cancels an open order; a shipped one must be refunded instead. */
  cancel_order(args: CancelOrderArgs): Promise<CancelOrderOutput>;
  /** One order by its id. */
  get_order(args: GetOrderArgs): Promise<GetOrderOutput>;
  /** Every order, newest last, optionally only those at or above a total. */
  list_orders(args: ListOrdersArgs): Promise<ListOrdersOutput>;
  /** Places an order for one product and returns it. */
  place_order(args: PlaceOrderArgs): Promise<PlaceOrderOutput>;
  /** Refunds part or all of a shipped order. */
  refund_order(args: RefundOrderArgs): Promise<RefundOrderOutput>;
};
