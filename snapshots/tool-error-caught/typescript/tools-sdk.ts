// The tools are async methods of the global `tools`: `const result = await tools.name(args);`, a quoted
// name with brackets: `await tools["some-name"](args)`. Arguments and results are plain JSON data.
// A failed call throws ToolCallError: `message` says why; `toolName`, `code` and `data` say more.

declare class ToolCallError extends Error {
  readonly toolName: string;
  readonly code?: string | number;
  readonly data?: unknown;
}

type ChargeCardArgs = {
  card: string;
  /** In euros. */
  amount: number;
};

type ChargeCardOutput = {
  receipt: string;
  amount: number;
};

declare const tools: {
  /** Charges a card; amounts over 500 are declined. */
  charge_card(args: ChargeCardArgs): Promise<ChargeCardOutput>;
};
