import type { ToolDefinition } from '../../contract/backend.js';

// One definition of a tool, shared with every backend through the contract.
export type { RegisteredTool, ToolDefinition } from '../../contract/backend.js';

/** A CPython minor version string, e.g. `"3.9"`. */
export type PythonVersion = `3.${number}`;

export interface SdkOptions {
  /** The oldest CPython the stubs must compile on; decides the Unicode tables for identifiers. */
  pythonFloor?: PythonVersion;
}

/** Renders the `tools:sdk` section body for one language. */
export type SdkRenderer = (tools: readonly ToolDefinition[], options?: SdkOptions) => string;
