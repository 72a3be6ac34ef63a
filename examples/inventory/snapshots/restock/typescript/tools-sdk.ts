// Each tool below is an async method of the global `tools` object. Call it with one arguments
// object and await the result: `const result = await tools.name(args);`. A tool whose name is
// quoted below is called with brackets: `await tools["some-name"](args)`.
// A call that fails throws a ToolCallError; its `toolName` says which tool failed.
// Arguments and results are plain JSON data; the types below describe their shape.

declare class ToolCallError extends Error {
  /** The name of the tool whose call failed. */
  readonly toolName: string;
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
