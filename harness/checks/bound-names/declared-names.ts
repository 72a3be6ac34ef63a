import { typescriptSdkNames } from '../sdk-names/typescript.js';

/** Every class a Python SDK block declares at its top level, in order. */
export function pythonClassNames(sdk: string): string[] {
  // Top-level statements start in column 0; docstrings and comments in the block are indented or start with `#`.
  return [...sdk.matchAll(/^class[ \t]+([\p{ID_Start}_][\p{ID_Continue}]*)[ \t]*[(:]/gmu)].map((m) => m[1]!);
}

/** Every name a TypeScript SDK block declares at its top level (types, interfaces, classes, values), in order. */
export function typescriptDeclaredNames(sdk: string): string[] {
  return typescriptSdkNames(sdk).declared.map((d) => d.name);
}
