// The tools are async methods of the global `tools`: `const result = await tools.name(args);`, a quoted
// name with brackets: `await tools["some-name"](args)`. Arguments and results are plain JSON data.
// A failed call throws ToolCallError: `message` says why; `toolName`, `code` and `data` say more.

declare class ToolCallError extends Error {
  readonly toolName: string;
  readonly code?: string | number;
  readonly data?: unknown;
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
