// The tools are async methods of the global `tools`: `const result = await tools.name(args);`, a quoted
// name with brackets: `await tools["some-name"](args)`. Arguments and results are plain JSON data.
// A failed call throws ToolCallError: `message` says why; `toolName`, `code` and `data` say more.

declare class ToolCallError extends Error {
  readonly toolName: string;
  readonly code?: string | number;
  readonly data?: unknown;
}

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
  list_stock(args: Record<string, never>): Promise<ListStockOutput>;
  /** Orders more units of one item from the supplier and returns the order number. */
  reorder(args: ReorderArgs): Promise<ReorderOutput>;
};
