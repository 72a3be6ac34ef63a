// The CPython runtime as a cordis plugin providing `ctx.codeRuntime`, loadable by path:
//   - name: <concord>/dist/runtimes/cpython/plugin.js
//     config: { isolation: container, image: 'concord-cpython:3.11', fallback: process, timeoutMs: 30000 }
import { runtimePlugin } from '../seam/plugin.js';
import { type CpythonPluginConfig, parseCpythonConfig } from './config.js';
import { createCpythonRuntime } from './runtime.js';

export default runtimePlugin<CpythonPluginConfig>({
  name: 'concord-runtime-cpython',
  Config: parseCpythonConfig,
  create: ({ shared: _shared, ...config }, host) => createCpythonRuntime(config, host),
});
