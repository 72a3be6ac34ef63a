/** How to use the SDK, as comment lines at the top of the section. */
export const TYPESCRIPT_SDK_USAGE: readonly string[] = [
  '// The tools are async methods of the global `tools`: `const result = await tools.name(args);`, a quoted',
  '// name with brackets: `await tools["some-name"](args)`. Arguments and results are plain JSON data.',
  '// A failed call throws ToolCallError: `message` says why; `toolName`, `code` and `data` say more.',
];
