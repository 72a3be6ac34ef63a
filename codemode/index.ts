// The reference backend's public entry point: what the harness and other packages may use of it.
// Its cordis plugins are the other public entry points (`concord/tools`, `concord/agent`).
export { DEFAULT_PYTHON_FLOOR, SUPPORTED_PYTHON_VERSIONS, unicodeTableOf } from './sdk/identifiers/versions.js';
export { decodeTable, type UnicodeTable, type EncodedUnicodeTable } from './sdk/identifiers/table.js';
export { renderSdk, renderSdkSection } from './run-code/sdk-section.js';
export { schemaDegradations } from './schema/lower.js';
export type { SchemaViolation } from './schema/types.js';
export { parseToolDefinitions } from './tools/definitions.js';
export { isPythonVersion, parseToolsConfig, type ToolsConfig, type ToolMode } from './tools/config.js';
export { parseAgentConfig, type AgentConfig } from './agent/config.js';
export type { PythonVersion, ToolDefinition, RegisteredTool, SdkOptions, SdkRenderer } from './tools/types.js';
