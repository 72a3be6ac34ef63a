import type { RuntimeHost } from '../seam/plugin.js';
import { PYODIDE_DEFAULTS } from './config.js';
import { PyodideInstance } from './instance.js';
import { PYODIDE_RELEASES, type PyodidePythonVersion } from './versions.js';

/** How one source fared under `compile(source, name, "exec")`. */
export type CompileOutcome =
  | { ok: true }
  | {
      ok: false;
      /** `SyntaxError`, `IndentationError`, `RecursionError` (deep `A | B | …` chains), … */
      name: string;
      message: string;
      /** 1-based line and column of a SyntaxError; null for errors without a position. */
      line: number | null;
      column: number | null;
    };

export interface PyodideCompileReport {
  /** The CPython version asked for, e.g. `3.13`. */
  version: PyodidePythonVersion;
  /** The Pyodide release that provides it, e.g. `0.29.3`. */
  pyodide: string;
  /** What the interpreter reports: `sys.version_info` as `major.minor.micro`. */
  python: string;
  /** `unicodedata.unidata_version`, which decides the identifiers the tokenizer accepts. */
  unicode: string;
  /** One outcome per source, in order. */
  results: CompileOutcome[];
}

/** Whether `value` has the shape of one compile or import outcome (what an interpreter process answers). */
export function isOutcome(value: unknown): value is CompileOutcome {
  if (value === null || typeof value !== 'object') return false;
  const outcome = value as Record<string, unknown>;
  if (outcome.ok === true) return true;
  const position = (field: unknown) => field === null || Number.isSafeInteger(field);
  return (
    outcome.ok === false &&
    typeof outcome.name === 'string' &&
    typeof outcome.message === 'string' &&
    position(outcome.line) &&
    position(outcome.column)
  );
}

/**
 * Compiles Python sources (as modules, not run) with the CPython inside one Pyodide release, in a sandboxed
 * worker process booted for this call and killed after it. Used to check that generated stubs are valid Python on every
 * version the project supports. With `host.snapshots`, the worker boots from the release's memory snapshot
 * there (and the first boot leaves one), as a runtime's does.
 */
export async function compileWithPyodide(
  version: PyodidePythonVersion,
  sources: readonly string[],
  host: RuntimeHost = {},
): Promise<PyodideCompileReport> {
  const release = PYODIDE_RELEASES[version];
  if (release === undefined) {
    throw new TypeError(
      `compileWithPyodide: no Pyodide release for Python ${JSON.stringify(version)} (known: ${Object.keys(PYODIDE_RELEASES).join(', ')})`,
    );
  }
  const instance = new PyodideInstance(version, PYODIDE_DEFAULTS.memoryLimitBytes, host.snapshots);
  instance.hold();
  try {
    const interpreter = await instance.ready;
    const parsed: unknown = JSON.parse(await instance.compile(JSON.stringify(sources)));
    if (!Array.isArray(parsed) || parsed.length !== sources.length || !parsed.every(isOutcome)) {
      throw new Error(`compileWithPyodide: the Pyodide ${release.pyodide} worker sent an unreadable answer`);
    }
    return {
      version,
      pyodide: release.pyodide,
      python: interpreter.python,
      unicode: interpreter.unicode,
      results: parsed,
    };
  } finally {
    await instance.terminate();
  }
}
