import { DEFAULT_PYODIDE_VERSION, PYODIDE_PYTHON_VERSIONS, pyodideInstalled, type PyodidePythonVersion } from '../../runtimes/pyodide/versions.js';
import { containerInterpreters } from './container.js';
import { findInterpreters, LocalInterpreter } from './local.js';
import { pyodideInterpreters } from './pyodide.js';
import { compareVersions, type CompileOutcome, type CompileReport, type PythonInterpreter } from './types.js';

export interface InventoryOptions {
  /** Pyodide releases to use (each must be installed): every installed one by default, `false` for none. */
  pyodide?: boolean | readonly PyodidePythonVersion[];
  /** Runtime images, when a Docker engine answers (default true). */
  containers?: boolean;
  /** `python3.X` binaries of pyenv and PATH (default true). */
  local?: boolean;
}

/** One interpreter's answer to a batch: its report, or why it could not compile at all. */
export type MatrixAnswer = { interpreter: PythonInterpreter; report: CompileReport } | { interpreter: PythonInterpreter; error: string };

interface Seen {
  python: string;
  unicode: string;
  outcomes: Map<string, CompileOutcome>;
}

type Mode = 'compile' | 'import';

const KIND_ORDER = { local: 0, container: 1, pyodide: 2 } as const;

/**
 * Every Python interpreter available here, oldest version first, with the reasons some are not. Outcomes
 * (compiled, or executed as a module) are cached by source text for the life of the inventory (one run): a
 * source is never sent twice to one interpreter for the same job, and a batch carries only new sources.
 */
export class InterpreterInventory {
  readonly interpreters: readonly PythonInterpreter[];
  /** One line per family or image that is missing, with the reason. */
  readonly absent: readonly string[];
  readonly #seen = new Map<PythonInterpreter, Map<Mode, Seen>>();

  constructor(interpreters: readonly PythonInterpreter[], absent: readonly string[] = []) {
    this.interpreters = [...interpreters].sort((a, b) => compareVersions(a.version, b.version) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
    this.absent = absent;
  }

  static async discover(options: InventoryOptions = {}): Promise<InterpreterInventory> {
    const interpreters: PythonInterpreter[] = [];
    const absent: string[] = [];
    const pyodide = options.pyodide ?? true;
    if (pyodide !== false) interpreters.push(...pyodideInterpreters(pyodide === true ? PYODIDE_PYTHON_VERSIONS.filter(pyodideInstalled) : pyodide));
    if (options.containers ?? true) {
      const found = await containerInterpreters();
      interpreters.push(...found.interpreters);
      absent.push(...found.absent);
    }
    if (options.local ?? true) {
      const found = findInterpreters();
      if (found.length === 0) absent.push('local: no python3.X on PATH or under pyenv');
      interpreters.push(...found.map((f) => new LocalInterpreter(f)));
    }
    return new InterpreterInventory(interpreters, absent);
  }

  /** Compiles `sources` on one interpreter; an empty batch still measures its version and Unicode once. */
  compileOn(interpreter: PythonInterpreter, sources: readonly string[]): Promise<CompileReport> {
    return this.#batch('compile', interpreter, sources);
  }

  /** Executes `sources` as modules on one interpreter (see PythonInterpreter.importModules), cached alike. */
  importOn(interpreter: PythonInterpreter, sources: readonly string[]): Promise<CompileReport> {
    return this.#batch('import', interpreter, sources);
  }

  /** Compiles `sources` on every interpreter at once; an interpreter that fails to answer says why. */
  compileEverywhere(sources: readonly string[]): Promise<MatrixAnswer[]> {
    return this.#everywhere('compile', sources);
  }

  /** Executes `sources` as modules on every interpreter at once, one batch (one process) per interpreter. */
  importEverywhere(sources: readonly string[]): Promise<MatrixAnswer[]> {
    return this.#everywhere('import', sources);
  }

  #everywhere(mode: Mode, sources: readonly string[]): Promise<MatrixAnswer[]> {
    return Promise.all(
      this.interpreters.map((interpreter) =>
        this.#batch(mode, interpreter, sources).then(
          (report) => ({ interpreter, report }),
          (error: unknown) => ({ interpreter, error: error instanceof Error ? error.message : String(error) }),
        ),
      ),
    );
  }

  async #batch(mode: Mode, interpreter: PythonInterpreter, sources: readonly string[]): Promise<CompileReport> {
    const byMode = this.#seen.get(interpreter) ?? new Map<Mode, Seen>();
    this.#seen.set(interpreter, byMode);
    let seen = byMode.get(mode);
    const fresh = [...new Set(sources.filter((s) => !seen?.outcomes.has(s)))];
    if (seen === undefined || fresh.length > 0) {
      const report = await (mode === 'compile' ? interpreter.compile(fresh) : interpreter.importModules(fresh));
      seen = byMode.get(mode) ?? { python: report.python, unicode: report.unicode, outcomes: new Map() };
      fresh.forEach((source, i) => seen!.outcomes.set(source, report.results[i]!));
      byMode.set(mode, seen);
    }
    const known = seen;
    return { python: known.python, unicode: known.unicode, results: sources.map((s) => known.outcomes.get(s)!) };
  }

  /** Stops every Pyodide instance and container this inventory started. */
  async dispose(): Promise<void> {
    const outcomes = await Promise.allSettled(this.interpreters.map((i) => i.dispose()));
    const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    if (failures.length > 0) throw new AggregateError(failures, 'stopping the Python interpreters failed');
  }
}

let shared: Promise<InterpreterInventory> | undefined;
let projectPyodides: readonly PyodidePythonVersion[] = [DEFAULT_PYODIDE_VERSION];

/**
 * The Pyodide releases of the project's stub matrix: `pyodide.versions` of its concord.config.yml (checked
 * installed when the config is read), else the default release, the one concord installs.
 */
export function usePyodides(versions: readonly PyodidePythonVersion[] | undefined): readonly PyodidePythonVersion[] {
  projectPyodides = versions ?? [DEFAULT_PYODIDE_VERSION];
  return projectPyodides;
}

/** The inventory of this run: discovered once, shared by every check that compiles. */
export function sharedInventory(): Promise<InterpreterInventory> {
  shared ??= InterpreterInventory.discover({ pyodide: projectPyodides });
  shared.catch(() => (shared = undefined));
  return shared;
}

/** Ends the run's inventory: stops what it started; the next sharedInventory() discovers again. */
export async function disposeSharedInventory(): Promise<void> {
  const current = shared;
  shared = undefined;
  const inventory = await current?.catch(() => undefined);
  await inventory?.dispose();
}
