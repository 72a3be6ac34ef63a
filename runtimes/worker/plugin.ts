// The TypeScript worker runtime as a cordis plugin providing `ctx.codeRuntime`, loadable by path:
//   - name: <concord>/dist/runtimes/worker/plugin.js
//     config: { timeoutMs: 30000, heapMb: 256, outputLimitBytes: 1000000, shared: false }
import { runtimePlugin } from '../seam/plugin.js';
import { parseWorkerConfig, type WorkerRuntimeConfig } from './config.js';
import { createWorkerRuntime } from './runtime.js';

export default runtimePlugin<WorkerRuntimeConfig>({
  name: 'concord-runtime-worker',
  Config: parseWorkerConfig,
  create: (config, host) => createWorkerRuntime(config, {}, host),
});
