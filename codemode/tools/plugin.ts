// The tool registry as a cordis plugin, loadable by path from a `cordis.yml` entry:
//   - name: <concord>/dist/codemode/tools/plugin.js
//     config: { mode: code, pythonFloor: '3.9' }
export { ToolRegistry as default } from './registry.js';
export type { ToolsConfig, ToolMode } from './config.js';
