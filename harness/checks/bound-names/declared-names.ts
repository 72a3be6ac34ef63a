/** Every class a Python SDK block declares at its top level, in order. */
export function pythonClassNames(sdk: string): string[] {
  // Top-level statements start in column 0; docstrings and comments in the block are indented or start with `#`.
  return [...sdk.matchAll(/^class[ \t]+([\p{ID_Start}_][\p{ID_Continue}]*)[ \t]*[(:]/gmu)].map((m) => m[1]!);
}
