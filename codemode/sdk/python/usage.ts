/** The prose at the top of the Python SDK block: how a program uses what follows. */
export const PYTHON_SDK_USAGE = [
  '# Python stubs of the tools. At run time only `tools` and `ToolCallError` exist: the classes below are',
  '# for reading, never import, construct or name them in code. Call `await tools.name({...})` with a plain',
  '# dict; a tool listed in a comment is called as `await tools["name"]({...})`. Results are plain JSON data.',
  '# A failed call raises ToolCallError: str(error) says why; toolName, code and data (or None) say more.',
];
