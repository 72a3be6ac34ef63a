// The tools are async methods of the global `tools`: `const result = await tools.name(args);`, a quoted
// name with brackets: `await tools["some-name"](args)`. Arguments and results are plain JSON data.
// A failed call throws ToolCallError: `message` says why; `toolName`, `code` and `data` say more.

declare class ToolCallError extends Error {
  readonly toolName: string;
  readonly code?: string | number;
  readonly data?: unknown;
}

type TextArgs = {
  text: string;
};

type Tool2faVerifyOutput = {
  tool: string;
  args: TextArgs;
};

declare const tools: {
  /** Starts with a digit and holds a dot. */
  "2fa.verify"(args: TextArgs): Promise<Tool2faVerifyOutput>;
  /** A name JavaScript objects treat specially. */
  __proto__(args: TextArgs): Promise<Tool2faVerifyOutput>;
  /** A keyword in Python. */
  class(args: TextArgs): Promise<Tool2faVerifyOutput>;
  /** A dashed name. */
  "weather-alerts"(args: TextArgs): Promise<Tool2faVerifyOutput>;
};
