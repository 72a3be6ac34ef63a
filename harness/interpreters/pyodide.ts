import { readFile } from 'node:fs/promises';
import { PYODIDE_DEFAULTS } from '../../runtimes/pyodide/config.js';
import { PyodideInstance } from '../../runtimes/pyodide/instance.js';
import {
  PYODIDE_PYTHON_VERSIONS,
  PYODIDE_RELEASES,
  type PyodidePythonVersion,
} from '../../runtimes/pyodide/versions.js';
import type { ByteStore } from '../../runtimes/seam/byte-store.js';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { sha256 } from '../cache/verdict-cache.js';
import { IMPORT_SECONDS, verifyProgram } from './import-script.js';
import { readOutcomes, readVerifyReport } from './report.js';
import type { CompileReport, PythonInterpreter, VerifyReport } from './types.js';

let driverHash: string | undefined;

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

  constructor(
    readonly version: PyodidePythonVersion,
    /** Where the instance's boot snapshot is kept (the session's verdict cache), if anywhere. */
    private readonly snapshots?: ByteStore,
  ) {
    const release = PYODIDE_RELEASES[version];
    this.label = `pyodide ${version}`;
    this.detail = `Pyodide ${release.pyodide} (npm ${release.packageName})`;
    this.unicode = release.unicode;
  }

  /** The release, and the driver that compiles in it (its text decides the outcomes as much as the release). */
  async identity(): Promise<string> {
    driverHash ??= sha256(await readFile(sourceAsset('runtimes/pyodide/concord_pyodide.py'), 'utf8'));
    return `pyodide ${this.detail} driver ${driverHash}`;
  }

  compile(sources: readonly string[]): Promise<CompileReport> {
    return this.#with(async (instance, about) => ({
      ...about,
      results: readOutcomes(await instance.compile(JSON.stringify(sources)), sources.length, this.label),
    }));
  }

  /**
   * Compiles the sources and executes those that compiled, as one program of the warm instance that compiles
   * each source once (import-script.ts; no fork here: each module is dropped with what it imported). Past its
   * time the instance is killed and the execution fails as a whole, the compile verdicts then coming from a
   * compile batch; a run that left state behind costs the instance too, so the next batch boots a fresh one.
   */
  async verify(sources: readonly string[]): Promise<VerifyReport> {
    try {
      return await this.#with((instance) => this.#execute(instance, sources));
    } catch (error) {
      const report = await this.compile(sources);
      return {
        ...report,
        imports: sources.map(() => null),
        importError: error instanceof Error ? error.message : String(error),
      };
    }
  }

  async #execute(instance: PyodideInstance, sources: readonly string[]): Promise<VerifyReport> {
    const limitMs = (sources.length + 1) * IMPORT_SECONDS * 1000;
    const { done } = instance.run(verifyProgram(sources), '[]', 256 * 1024 * 1024, {
      onCall: () => {},
      onLog: () => {},
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${this.label}: the modules did not finish within ${limitMs / 1000} s`)),
        limitMs,
      );
    });
    try {
      const outcome = await Promise.race([done, late]);
      const driver = JSON.parse(outcome.outcomeJson) as { result: string; taint: string | null };
      if (driver.taint !== null) await this.dispose();
      const result = JSON.parse(driver.result) as { value?: unknown; error?: { message?: string } };
      if (!('value' in result))
        throw new Error(
          `${this.label}: the import batch failed: ${result.error?.message ?? driver.result.slice(0, 200)}`,
        );
      const report = readVerifyReport(JSON.stringify(result.value), sources.length, this.label);
      if (report.importError !== undefined) throw new Error(`${this.label}: ${report.importError}`);
      return report;
    } catch (error) {
      await this.dispose();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Boots the instance now (from the memory snapshot where there is one), so the first batch finds it ready. */
  async start(): Promise<void> {
    let instance: PyodideInstance;
    try {
      instance = this.#live();
    } catch {
      // Not even launchable here (its files unreadable by the worker's user, say): the first batch says why.
      return;
    }
    instance.hold();
    try {
      await instance.ready.catch(() => undefined);
    } finally {
      instance.release();
    }
  }

  async #with<R>(
    batch: (instance: PyodideInstance, about: { python: string; unicode: string }) => Promise<R>,
  ): Promise<R> {
    const instance = this.#live();
    instance.hold();
    try {
      const { python, unicode } = await instance.ready;
      return await batch(instance, { python, unicode });
    } finally {
      instance.release();
    }
  }

  /** The running instance, booted anew when there is none (or it died). */
  #live(): PyodideInstance {
    if (this.#instance === undefined || this.#instance.dead) {
      this.#instance = new PyodideInstance(this.version, PYODIDE_DEFAULTS.memoryLimitBytes, this.snapshots);
    }
    return this.#instance;
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
export function pyodideInterpreters(
  versions: readonly PyodidePythonVersion[] = PYODIDE_PYTHON_VERSIONS,
  snapshots?: ByteStore,
): PyodideInterpreter[] {
  return versions.map((version) => new PyodideInterpreter(version, snapshots));
}
