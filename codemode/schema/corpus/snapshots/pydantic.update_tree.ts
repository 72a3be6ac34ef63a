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

/** UpdateArgs */
type UpdateTreeArgs = {
  id: string;
  patch: { [key: string]: string | number | boolean };
  tree: UpdateTree_TreeNode;
};

/** A node of a category tree. */
type UpdateTree_TreeNode = {
  label: string;
  /** default: [] */
  children?: UpdateTree_TreeNode[];
  parent?: UpdateTree_TreeNode;
};

type UpdateTreeOutput = UpdateTree_TreeNode2;

/** A node of a category tree. */
type UpdateTree_TreeNode2 = {
  label: string;
  /** default: [] */
  children?: UpdateTree_TreeNode2[];
  parent?: UpdateTree_TreeNode2;
};

declare const tools: {
  /** Replace a category tree. */
  update_tree(args: UpdateTreeArgs): Promise<UpdateTreeOutput>;
};
