export { createCpythonRuntime, CPYTHON_DEFAULTS, type CpythonRuntime } from './runtime.js';
export { parseCpythonConfig, type CpythonPluginConfig, type CpythonRuntimeConfig } from './config.js';
