/** The prose at the top of the Python SDK block: how a program uses what follows. */
export const PYTHON_SDK_USAGE = [
  '# The tools your program can call, described as Python stubs.',
  '# At run time your program sees exactly two names: `tools` and `ToolCallError`. The TypedDict classes',
  '# below are static stubs for reading only: they do not exist at run time, so never import, construct or',
  '# name them in code. Pass arguments as a plain dict; results come back as plain dicts, lists and values.',
  '# Call a tool with `await tools.name({...})`; a tool listed only in a comment is called by its exact',
  '# name: `await tools["name"]({...})`. A failed call raises ToolCallError: `str(error)` says why, `toolName`',
  '# names the tool, and `code` and `data` carry what the tool gave with its error (None when it gave none).',
];
