/** How to use the SDK, as comment lines at the top of the section. */
export const TYPESCRIPT_SDK_USAGE: readonly string[] = [
  '// Each tool below is an async method of the global `tools` object. Call it with one arguments',
  '// object and await the result: `const result = await tools.name(args);`. A tool whose name is',
  '// quoted below is called with brackets: `await tools["some-name"](args)`.',
  '// A call that fails throws a ToolCallError; its `toolName` says which tool failed.',
  '// Arguments and results are plain JSON data; the types below describe their shape.',
];
