// The tools are async methods of the global `tools`: `const result = await tools.name(args);`, a quoted
// name with brackets: `await tools["some-name"](args)`. Arguments and results are plain JSON data.
// A failed call throws ToolCallError: `message` says why; `toolName`, `code` and `data` say more.

declare class ToolCallError extends Error {
  readonly toolName: string;
  readonly code?: string | number;
  readonly data?: unknown;
}

/** A node of a category tree. */
type TreeNode = {
  label: string;
  /** default: [] */
  children?: TreeNode[];
  parent?: TreeNode;
};

/** UpdateArgs */
type UpdateTreeArgs = {
  id: string;
  patch: { [key: string]: string | number | boolean };
  tree: TreeNode;
};

declare const tools: {
  /** Replace a category tree. */
  update_tree(args: UpdateTreeArgs): Promise<TreeNode>;
};
