export { parseWorkerConfig, WORKER_DEFAULTS, type WorkerRuntimeConfig } from './config.js';
export { createWorkerRuntime } from './runtime.js';
