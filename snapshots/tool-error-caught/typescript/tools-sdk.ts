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
