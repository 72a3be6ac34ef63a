// The tool registry as a cordis plugin, loadable by path from a `cordis.yml` entry:
//   - name: <concord>/dist/codemode/tools/plugin.js
//     config: { mode: code, pythonFloor: '3.9' }

export type { ToolMode, ToolsConfig } from './config.js';
export { ToolRegistry as default } from './registry.js';
