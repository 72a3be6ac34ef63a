// The reference backend's public entry point: what the harness and other packages may use of it.
// Its cordis plugins are the other public entry points (`concord/tools`, `concord/agent`).

export { type AgentConfig, parseAgentConfig } from './agent/config.js';
export { renderSdk, renderSdkSection } from './run-code/sdk-section.js';
export { schemaDegradations } from './schema/lower.js';
export type { SchemaViolation } from './schema/types.js';
export { decodeTable, type EncodedUnicodeTable, type UnicodeTable } from './sdk/identifiers/table.js';
export { DEFAULT_PYTHON_FLOOR, SUPPORTED_PYTHON_VERSIONS, unicodeTableOf } from './sdk/identifiers/versions.js';
export { isPythonVersion, parseToolsConfig, type ToolMode, type ToolsConfig } from './tools/config.js';
export { parseToolDefinitions } from './tools/definitions.js';
export type { PythonVersion, RegisteredTool, SdkOptions, SdkRenderer, ToolDefinition } from './tools/types.js';
