import type { BridgeConfig } from '../seam/calls.js';
import { LIMIT_BOUNDS, parseRuntimeOptions, RuntimeOptionError } from '../seam/options.js';
import {
  DEFAULT_PYODIDE_VERSION,
  isPyodidePythonVersion,
  PYODIDE_PYTHON_VERSIONS,
  type PyodidePythonVersion,
} from './versions.js';

/** Settings of the Pyodide runtime; every field is optional. */
export interface PyodideRuntimeConfig extends BridgeConfig {
  /** CPython version, which picks the Pyodide release (default 3.13; see versions.ts for the reason). */
  version?: PyodidePythonVersion;
  /** Time budget of one run, in milliseconds (default 30,000). The worker process is killed: kind `timeout`. */
  timeoutMs?: number;
  /** Cap on the UTF-8 bytes of logs plus the returned value's JSON (default 1,000,000): kind `output-limit`. */
  outputLimitBytes?: number;
  /** Cap on the interpreter's WebAssembly memory (default 512 MiB): past it, the program gets MemoryError. */
  memoryLimitBytes?: number;
  /** Borrow the runtime from the process-wide pool (see runtimes/seam/plugin.ts). */
  shared?: boolean;
}

export const PYODIDE_DEFAULTS = {
  version: DEFAULT_PYODIDE_VERSION,
  timeoutMs: 30_000,
  outputLimitBytes: 1_000_000,
  memoryLimitBytes: 512 * 1024 * 1024,
} as const;

/** Checks a raw config (from cordis.yml or code) and says which field is wrong and what is allowed. */
export function parsePyodideConfig(raw: unknown): PyodideRuntimeConfig {
  const version = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>)['version'] : undefined;
  if (version !== undefined && !isPyodidePythonVersion(version)) {
    throw new RuntimeOptionError(
      `pyodide runtime config: version must be one of ${PYODIDE_PYTHON_VERSIONS.map((v) => `"${v}"`).join(', ')} ` +
        `(a string), got ${JSON.stringify(version)}`,
    );
  }
  return parseRuntimeOptions<PyodideRuntimeConfig>('pyodide', raw, {
    // Below 64 MiB the interpreter cannot boot; wasm32 cannot address more than 4 GiB.
    integers: { ...LIMIT_BOUNDS, memoryLimitBytes: [64 * 1024 * 1024, 4 * 1024 * 1024 * 1024] },
    choices: { version: PYODIDE_PYTHON_VERSIONS },
  });
}
