import type { LanguageTable } from './languages.js';

/** The two model-facing strings of `run_code`: they must describe the language the runtime really runs. */
export interface RunCodeText {
  /** The tool's description. */
  tool: string;
  /** The description of its `code` parameter. */
  code: string;
}

export const RUN_CODE_TEXT: LanguageTable<RunCodeText> = {
  typescript: {
    tool: [
      'Run a TypeScript program that works with the tools listed in the tools SDK section, and get back what it produced.',
      'The program is the body of an async function, so `await` works at the top level and `return` ends it with a result.',
      'Call a tool as `await tools.name({ ...arguments })`, or `await tools["name"]({ ... })` when its name is not an identifier; every tool takes one argument object.',
      'A tool that fails throws a `ToolCallError`: `message` says why, `toolName` which tool it was, and `code` and `data` carry what the tool gave with its error.',
      'What you get back: the returned value (it must be JSON: objects, arrays, strings, finite numbers, booleans, null) and every line the program logged with `console.log`.',
      'Types are erased before the program runs, so write only annotations that can be dropped (no `enum`, no `namespace`).',
    ].join('\n'),
    code: 'TypeScript source for the body of an async function. Reach tools through `tools`, end with `return value`; logged lines are returned too.',
  },
  python: {
    tool: [
      'Run a Python program that works with the tools listed in the tools SDK section, and get back what it produced.',
      'The program is the body of an async function, so `await` works at the top level and `return` ends it with a result.',
      'Call a tool as `await tools.name({...})` with a plain dict of arguments, or `await tools["name"]({...})` when its name is not an identifier.',
      'Only two names are provided at run time: `tools` and `ToolCallError`. The TypedDict classes in the SDK section describe the shapes of arguments and results for you to read; they do not exist while the program runs.',
      'A tool that fails raises `ToolCallError`: `str(error)` says why, `toolName` which tool it was, and `code` and `data` carry what the tool gave with its error (None when it gave none).',
      'What you get back: the returned value (it must be JSON: dict, list, str, finite int or float, bool, None) and every line the program printed with `print()`.',
    ].join('\n'),
    code: 'Python source for the body of an async function. Reach tools through `tools` with dict arguments, end with `return value`; printed lines are returned too.',
  },
};
