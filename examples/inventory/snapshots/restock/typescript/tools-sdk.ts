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

type ListStockArgs = Record<string, never>;

type ListStockOutput = {
  items: {
      item: string;
      units: number;
      reorderBelow: number;
    }[];
};

type ReorderArgs = {
  /** The item, as list_stock names it. */
  item: string;
  /** How many units to order, at least 1. */
  units: number;
};

type ReorderOutput = {
  order: string;
  item: string;
  units: number;
};

declare const tools: {
  /** Every item in the shop with the units on the shelf and the level below which it is reordered. */
  list_stock(args: ListStockArgs): Promise<ListStockOutput>;
  /** Orders more units of one item from the supplier and returns the order number. */
  reorder(args: ReorderArgs): Promise<ReorderOutput>;
};
