import { dirname } from 'node:path';
import { MissingPackageError, resolveOptional } from '../seam/optional-package.js';

/**
 * The Pyodide releases concord knows, as npm aliases, keyed by the CPython version each one embeds.
 * Unicode versions are what `unicodedata.unidata_version` reports (checked by the tests); `memorySnapshot`:
 * the release can boot from a memory snapshot of an earlier boot (`_loadSnapshot`; 0.25 cannot).
 */
export const PYODIDE_RELEASES = {
  '3.11': { packageName: 'pyodide-0.25', pyodide: '0.25.1', unicode: '14.0.0', memorySnapshot: false },
  '3.12': { packageName: 'pyodide-0.27', pyodide: '0.27.7', unicode: '15.0.0', memorySnapshot: true },
  '3.13': { packageName: 'pyodide-0.29', pyodide: '0.29.3', unicode: '15.1.0', memorySnapshot: true },
  '3.14': { packageName: 'pyodide-314', pyodide: '314.0.7', unicode: '16.0.0', memorySnapshot: true },
} as const;

export type PyodidePythonVersion = keyof typeof PYODIDE_RELEASES;

export const PYODIDE_PYTHON_VERSIONS = Object.keys(PYODIDE_RELEASES) as PyodidePythonVersion[];

/**
 * 3.13 (Pyodide 0.29.3): a patch release of a mature line, the fastest of the four to boot here, and the
 * same CPython as the Debian trixie container image, so the wasm and container runs of a scenario agree.
 */
export const DEFAULT_PYODIDE_VERSION: PyodidePythonVersion = '3.13';

export function isPyodidePythonVersion(value: unknown): value is PyodidePythonVersion {
  return typeof value === 'string' && Object.hasOwn(PYODIDE_RELEASES, value);
}

/**
 * Folder of the installed Pyodide package for a CPython version (Pyodide's `indexURL`). Only the default
 * release is a dependency of concord; another one not installed throws a MissingPackageError naming the
 * command that adds it.
 */
export function pyodidePackageDir(version: PyodidePythonVersion): string {
  const release = PYODIDE_RELEASES[version];
  return dirname(
    resolveOptional(`${release.packageName}/package.json`, `Pyodide ${release.pyodide} (Python ${version})`),
  );
}

/** Whether the Pyodide release for `version` is installed. */
export function pyodideInstalled(version: PyodidePythonVersion): boolean {
  try {
    pyodidePackageDir(version);
    return true;
  } catch (error) {
    if (error instanceof MissingPackageError) return false;
    throw error;
  }
}
