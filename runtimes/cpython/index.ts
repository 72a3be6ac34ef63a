export { createCpythonRuntime, CPYTHON_DEFAULTS, type CpythonRuntime, type CpythonRuntimeConfig } from './runtime.js';
export { parseCpythonConfig, type CpythonPluginConfig } from './config.js';
