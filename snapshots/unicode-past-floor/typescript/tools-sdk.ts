// Each tool below is an async method of the global `tools` object. Call it with one arguments
// object and await the result: `const result = await tools.name(args);`. A tool whose name is
// quoted below is called with brackets: `await tools["some-name"](args)`.
// A call that fails throws a ToolCallError; its `toolName` says which tool failed.
// Arguments and results are plain JSON data; the types below describe their shape.

declare class ToolCallError extends Error {
  /** The name of the tool whose call failed. */
  readonly toolName: string;
}

type LossaryLookupArgs = {
  word: string;
};

type LossaryLookupOutput = {
  word: string;
  meaning: string | null;
};

declare const tools: {
  /** Looks a word up in the glossary. */
  "ꟑlossary_lookup"(args: LossaryLookupArgs): Promise<LossaryLookupOutput>;
};
