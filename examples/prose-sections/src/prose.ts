import type { Language } from 'concord/contract';

/** The guide before the block, in the language of the runtime (and, `crossed`, in the other one). */
export const GUIDE: Readonly<Record<Language, string>> = {
  python: [
    '## Writing code for run_code',
    '',
    'Your program is the body of an async Python function. Call a tool with `await tools.name({"key": value})`;',
    'a tool whose name is not a plain identifier is reached as `await tools["name"]({...})`. A failed call raises',
    '`ToolCallError`: catch it with `except ToolCallError as error:` and read `error.tool_name`. Finish with',
    '`return value` (any JSON value). Only `tools` and `ToolCallError` exist when the program runs.',
    '',
  ].join('\n'),
  typescript: [
    '## Writing code for run_code',
    '',
    'Your program is the body of an async TypeScript function. Call a tool with `await tools.name({ key: value })`;',
    'a failed call throws a `ToolCallError` whose `toolName` says which. Finish with `return value` (any JSON',
    'value). Only `tools` and `ToolCallError` exist when the program runs.',
    '',
  ].join('\n'),
};

/** After the block: where the reference ends. */
export const CLOSING = '\nThe declarations above are for reading; they do not run.\n';
