import { PYODIDE_DEFAULTS } from '../../runtimes/pyodide/config.js';
import { PyodideInstance } from '../../runtimes/pyodide/instance.js';
import { PYODIDE_PYTHON_VERSIONS, PYODIDE_RELEASES, type PyodidePythonVersion } from '../../runtimes/pyodide/versions.js';
import { readOutcomes } from './report.js';
import type { CompileReport, PythonInterpreter } from './types.js';

/**
 * CPython inside one Pyodide release. Booting takes seconds, so the instance boots on the first batch and
 * stays for the run (idle, it does not keep the process alive) until dispose().
 */
export class PyodideInterpreter implements PythonInterpreter {
  readonly kind = 'pyodide';
  readonly label: string;
  readonly detail: string;
  readonly unicode: string;
  #instance: PyodideInstance | undefined;

  constructor(readonly version: PyodidePythonVersion) {
    const release = PYODIDE_RELEASES[version];
    this.label = `pyodide ${version}`;
    this.detail = `Pyodide ${release.pyodide} (npm ${release.packageName})`;
    this.unicode = release.unicode;
  }

  async compile(sources: readonly string[]): Promise<CompileReport> {
    if (this.#instance === undefined || this.#instance.dead) {
      this.#instance = new PyodideInstance(this.version, PYODIDE_DEFAULTS.memoryLimitBytes);
    }
    const instance = this.#instance;
    instance.hold();
    try {
      const { python, unicode } = await instance.ready;
      const results = readOutcomes(await instance.compile(JSON.stringify(sources)), sources.length, this.label);
      return { python, unicode, results };
    } finally {
      instance.release();
    }
  }

  async dispose(): Promise<void> {
    const instance = this.#instance;
    this.#instance = undefined;
    // An idle instance is unref'd: without a hold the process could end before the worker has stopped.
    instance?.hold();
    await instance?.terminate();
  }
}

/** One interpreter per Pyodide release installed through the npm aliases. */
export function pyodideInterpreters(versions: readonly PyodidePythonVersion[] = PYODIDE_PYTHON_VERSIONS): PyodideInterpreter[] {
  return versions.map((version) => new PyodideInterpreter(version));
}
