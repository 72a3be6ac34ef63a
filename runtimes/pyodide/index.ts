// The Pyodide backend's public surface.
export { compileWithPyodide, type CompileOutcome, type PyodideCompileReport } from './compile.js';
export { parsePyodideConfig, PYODIDE_DEFAULTS, type PyodideRuntimeConfig } from './config.js';
export { createPyodideRuntime, type PyodideRuntime } from './runtime.js';
export { sandboxNetwork, type SandboxNetwork } from './sandbox.js';
export { supportsSnapshots, type ByteStore } from './snapshot.js';
export {
  DEFAULT_PYODIDE_VERSION,
  isPyodidePythonVersion,
  PYODIDE_PYTHON_VERSIONS,
  PYODIDE_RELEASES,
  type PyodidePythonVersion,
} from './versions.js';
