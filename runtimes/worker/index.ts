export { createWorkerRuntime } from './runtime.js';
export { parseWorkerConfig, WORKER_DEFAULTS, type WorkerRuntimeConfig } from './config.js';
