import { DEFAULT_PYODIDE_VERSION, PYODIDE_PYTHON_VERSIONS, pyodideInstalled, type PyodidePythonVersion } from '../../runtimes/pyodide/versions.js';
import { containerInterpreters } from './container.js';
import { discoverInterpreters, LocalInterpreter } from './local.js';
import { pyodideInterpreters } from './pyodide.js';
import { compareVersions, type CompileOutcome, type CompileReport, type PythonInterpreter } from './types.js';
import { sha256, verdictCache } from '../cache/verdict-cache.js';
import { COMPILE_SCRIPT } from './compile-script.js';
import { IMPORT_SCRIPT } from './import-script.js';
import { isOutcome } from './report.js';

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

/** One interpreter's verdict on one source, with what the interpreter said about itself. */
interface Answer {
  python: string;
  unicode: string;
  outcome: CompileOutcome;
}

type Mode = 'compile' | 'import';

/** The checkers' own text: a verdict cached by another version of them is not reused. */
const CHECKERS = sha256(COMPILE_SCRIPT + IMPORT_SCRIPT);

const isAnswer = (value: unknown): value is Answer => {
  if (value === null || typeof value !== 'object') return false;
  const answer = value as Record<string, unknown>;
  return typeof answer.python === 'string' && typeof answer.unicode === 'string' && isOutcome(answer.outcome);
};

const KIND_ORDER = { local: 0, container: 1, pyodide: 2 } as const;

/**
 * Every Python interpreter available here, oldest version first, with the reasons some are not. Outcomes
 * (compiled, or executed as a module) are kept by the sha256 of the source for the life of the inventory
 * (one run), in flight too: a source is sent once to one interpreter for one job, whichever pairs and runtimes
 * ask for it and however many ask at once, and a batch carries only new sources. With the run's verdict
 * cache (harness/cache), a verdict an earlier run stored for the same interpreter identity is used without
 * starting the interpreter at all.
 */
export class InterpreterInventory {
  readonly interpreters: readonly PythonInterpreter[];
  /** One line per family or image that is missing, with the reason. */
  readonly absent: readonly string[];
  readonly #answers = new Map<PythonInterpreter, Map<string, Promise<Answer>>>();
  readonly #about = new Map<PythonInterpreter, Promise<{ python: string; unicode: string }>>();

  constructor(interpreters: readonly PythonInterpreter[], absent: readonly string[] = []) {
    this.interpreters = [...interpreters].sort((a, b) => compareVersions(a.version, b.version) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
    this.absent = absent;
  }

  static async discover(options: InventoryOptions = {}): Promise<InterpreterInventory> {
    const interpreters: PythonInterpreter[] = [];
    const absent: string[] = [];
    const pyodide = options.pyodide ?? true;
    if (pyodide !== false) interpreters.push(...pyodideInterpreters(pyodide === true ? PYODIDE_PYTHON_VERSIONS.filter(pyodideInstalled) : pyodide));
    // Images and local binaries are looked for at once: discovery is on the first Python pair's path.
    const [containers, locals] = await Promise.all([
      (options.containers ?? true) ? containerInterpreters() : undefined,
      (options.local ?? true) ? discoverInterpreters() : undefined,
    ]);
    if (containers !== undefined) {
      interpreters.push(...containers.interpreters);
      absent.push(...containers.absent);
    }
    if (locals !== undefined) {
      if (locals.length === 0) absent.push('local: no python3.X on PATH or under pyenv');
      interpreters.push(...locals.map((f) => new LocalInterpreter(f)));
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

  #batch(mode: Mode, interpreter: PythonInterpreter, sources: readonly string[]): Promise<CompileReport> {
    const known = this.#answers.get(interpreter) ?? new Map<string, Promise<Answer>>();
    this.#answers.set(interpreter, known);
    const keys = sources.map((source) => `${mode}:${sha256(source)}`);
    const fresh = new Map<string, string>();
    keys.forEach((key, i) => {
      if (!known.has(key)) fresh.set(key, sources[i]!);
    });
    if (fresh.size > 0) {
      const group = this.#judge(mode, interpreter, fresh);
      for (const key of fresh.keys()) {
        const answer = group.then((answers) => answers.get(key)!);
        known.set(key, answer);
        // A batch that failed is not kept: the next one asks again.
        answer.catch(() => known.get(key) === answer && known.delete(key));
      }
    }
    if (keys.length === 0) return this.#aboutOf(interpreter);
    return Promise.all(keys.map((key) => known.get(key)!)).then((answers) => ({
      python: answers[0]!.python,
      unicode: answers[0]!.unicode,
      results: answers.map((a) => a.outcome),
    }));
  }

  /** What `interpreter` says about itself, from any answer it gave, else from an empty batch (run once). */
  #aboutOf(interpreter: PythonInterpreter): Promise<CompileReport> {
    let about = this.#about.get(interpreter);
    if (about === undefined) {
      const any = [...(this.#answers.get(interpreter)?.values() ?? [])][0];
      about = any ?? interpreter.compile([]);
      this.#about.set(interpreter, about);
      about.catch(() => this.#about.delete(interpreter));
    }
    return about.then(({ python, unicode }) => ({ python, unicode, results: [] }));
  }

  /** Answers `fresh` (by key): from the verdict cache where it has them, the rest in one batch of the interpreter. */
  async #judge(mode: Mode, interpreter: PythonInterpreter, fresh: ReadonlyMap<string, string>): Promise<Map<string, Answer>> {
    const cache = verdictCache();
    const identity = cache === undefined ? undefined : await interpreter.identity().catch(() => undefined);
    const parts = (key: string) => [identity!, CHECKERS, key];
    const answers = new Map<string, Answer>();
    if (cache !== undefined && identity !== undefined) {
      await Promise.all(
        [...fresh.keys()].map(async (key) => {
          const cached = await cache.get(mode, parts(key), isAnswer);
          if (cached !== undefined) answers.set(key, cached);
        }),
      );
    }
    const missing = [...fresh].filter(([key]) => !answers.has(key));
    if (missing.length === 0) return answers;
    const batch = missing.map(([, source]) => source);
    const report = await (mode === 'compile' ? interpreter.compile(batch) : interpreter.importModules(batch));
    await Promise.all(
      missing.map(async ([key], i) => {
        const answer = { python: report.python, unicode: report.unicode, outcome: report.results[i]! };
        answers.set(key, answer);
        if (cache !== undefined && identity !== undefined) await cache.put(mode, parts(key), answer);
      }),
    );
    return answers;
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
