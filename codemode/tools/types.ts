import type { JsonValue } from '../../runtimes/seam/types.js';

/** A tool as the model sees it: the input of both SDK renderers and of `concord sdk --tools`. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments (any draft; a part no type can express degrades alone). */
  parameters: unknown;
  /** JSON schema of the result; absent means unknown. */
  output?: unknown;
}

/** A tool a plugin registers: its definition and what runs when a program calls it. */
export interface RegisteredTool extends ToolDefinition {
  execute(args: JsonValue): Promise<JsonValue>;
}

/** A CPython minor version string, e.g. `"3.9"`. */
export type PythonVersion = `3.${number}`;

export interface SdkOptions {
  /** The oldest CPython the stubs must compile on; decides the Unicode tables for identifiers. */
  pythonFloor?: PythonVersion;
}

/** Renders the `tools:sdk` section body for one language. */
export type SdkRenderer = (tools: readonly ToolDefinition[], options?: SdkOptions) => string;
