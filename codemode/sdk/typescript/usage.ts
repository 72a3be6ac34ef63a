/** How to use the SDK, as comment lines at the top of the section. */
export const TYPESCRIPT_SDK_USAGE: readonly string[] = [
  '// Each tool below is an async method of the global `tools` object. Call it with one arguments',
  '// object and await the result: `const result = await tools.name(args);`. A tool whose name is',
  '// quoted below is called with brackets: `await tools["some-name"](args)`.',
  '// A call that fails throws a ToolCallError: `message` says why, `toolName` which tool failed, and',
  '// `code` and `data` carry what the tool gave with its error.',
  '// Arguments and results are plain JSON data; the types below describe their shape.',
];
