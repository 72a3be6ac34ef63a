// The Pyodide runtime as a cordis plugin providing `ctx.codeRuntime`, loadable by path:
//   - name: <concord>/dist/runtimes/pyodide/plugin.js
//     config: { version: '3.13', timeoutMs: 30000, outputLimitBytes: 1000000, shared: true }
import { runtimePlugin } from '../seam/plugin.js';
import { type PyodideRuntimeConfig, parsePyodideConfig } from './config.js';
import { createPyodideRuntime } from './runtime.js';

export default runtimePlugin<PyodideRuntimeConfig>({
  name: 'concord-runtime-pyodide',
  Config: parsePyodideConfig,
  create: (config, host) => createPyodideRuntime(config, host),
});
