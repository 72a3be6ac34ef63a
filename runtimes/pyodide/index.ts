// The Pyodide backend's public surface.
export { type CompileOutcome, compileWithPyodide, type PyodideCompileReport } from './compile.js';
export { PYODIDE_DEFAULTS, type PyodideRuntimeConfig, parsePyodideConfig } from './config.js';
export { createPyodideRuntime, type PyodideRuntime } from './runtime.js';
export { type SandboxNetwork, sandboxNetwork } from './sandbox.js';
export { type ByteStore, supportsSnapshots } from './snapshot.js';
export {
  DEFAULT_PYODIDE_VERSION,
  isPyodidePythonVersion,
  PYODIDE_PYTHON_VERSIONS,
  PYODIDE_RELEASES,
  type PyodidePythonVersion,
} from './versions.js';
