export { type CpythonPluginConfig, type CpythonRuntimeConfig, parseCpythonConfig } from './config.js';
export { processInterpreterUnavailable, processRunsSeeAccountEnviron } from './process-launcher.js';
export { CPYTHON_DEFAULTS, type CpythonRuntime, createCpythonRuntime } from './runtime.js';
