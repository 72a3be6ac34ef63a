// The reference backend's public entry point: what the harness and other packages may use of it.
// Its cordis plugins are the other public entry points (`codemode/tools/plugin`, `codemode/agent/plugin`).
export { DEFAULT_PYTHON_FLOOR, SUPPORTED_PYTHON_VERSIONS } from './sdk/identifiers/versions.js';
export type { PythonVersion, ToolDefinition, RegisteredTool, SdkOptions, SdkRenderer } from './tools/types.js';
