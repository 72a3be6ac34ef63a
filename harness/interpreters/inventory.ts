import { isOutcome } from '../../runtimes/pyodide/compile.js';
import { pyodideUnavailable } from '../../runtimes/pyodide/sandbox.js';
import {
  PYODIDE_PYTHON_VERSIONS,
  type PyodidePythonVersion,
  pyodideInstalled,
  pyodidePackageDir,
} from '../../runtimes/pyodide/versions.js';
import type { ByteStore } from '../../runtimes/seam/byte-store.js';
import { sha256, type VerdictCache } from '../cache/verdict-cache.js';
import { containerInterpreters } from './container.js';
import { CHECKER_SCRIPT } from './import-script.js';
import { discoverInterpreters, LocalInterpreter } from './local.js';
import { pyodideInterpreters } from './pyodide.js';
import {
  type CompileOutcome,
  type CompileReport,
  compareVersions,
  type PythonInterpreter,
  type VerifyReport,
} from './types.js';

export interface InventoryOptions {
  /** Pyodide releases to use (each must be installed): every installed one by default, `false` for none. */
  pyodide?: boolean | readonly PyodidePythonVersion[];
  /** Runtime images, when a Docker engine answers (default true). */
  containers?: boolean;
  /** `python3.X` binaries of pyenv and PATH (default true). */
  local?: boolean;
  /**
   * Where verdicts (and what local interpreters said about themselves) are kept between runs (the session's verdict
   * cache); none: every verdict is computed, every interpreter probed.
   */
  cache?: VerdictCache;
  /** Where the Pyodide interpreters keep their boot snapshots (the session's). */
  snapshots?: ByteStore;
}

/** One interpreter's answer to a batch: its report, or why it could not run the batch at all. */
export type MatrixAnswer<R extends CompileReport = CompileReport> =
  | { interpreter: PythonInterpreter; report: R }
  | { interpreter: PythonInterpreter; error: string };

/** What an interpreter said about itself with a verdict. */
interface About {
  python: string;
  unicode: string;
}

/** One interpreter's compile verdict on one source. */
interface Answer extends About {
  outcome: CompileOutcome;
}

/** One interpreter's verdicts on one source compiled and then executed (`imported` null: it did not compile). */
interface Verdict extends About {
  compiled: CompileOutcome;
  imported: CompileOutcome | null;
  /** Why executing failed as a whole: such a verdict is used by the batch that got it and never kept. */
  importError?: string;
}

/** The checkers' own text: a verdict cached by another version of them is not reused. */
const CHECKERS = sha256(CHECKER_SCRIPT);

const isAnswer = (value: unknown): value is Answer => {
  if (value === null || typeof value !== 'object') return false;
  const answer = value as Record<string, unknown>;
  return typeof answer.python === 'string' && typeof answer.unicode === 'string' && isOutcome(answer.outcome);
};

const KIND_ORDER = { local: 0, container: 1, pyodide: 2 } as const;

/** What one interpreter has answered in this run, by the sha256 of the source, in flight too. */
interface Known {
  compiled: Map<string, Promise<Answer>>;
  verified: Map<string, Promise<Verdict>>;
}

/**
 * Keeps `promise` under `key` while it is pending or kept: a batch that failed, or a verdict `kept` refuses,
 * is dropped so the next batch asks again.
 */
function remember<T>(
  map: Map<string, Promise<T>>,
  key: string,
  promise: Promise<T>,
  kept: (value: T) => boolean = () => true,
): void {
  map.set(key, promise);
  const forget = () => map.get(key) === promise && map.delete(key);
  promise.then((value) => kept(value) || forget(), forget);
}

/**
 * Every Python interpreter available here, oldest version first, with the reasons some are not. Verdicts
 * (compiled; compiled and executed as a module) are kept by the sha256 of the source for the life of the
 * inventory (one run), in flight too: a source is sent once to one interpreter, whichever pairs and runtimes
 * ask for it and however many ask at once, and a batch carries only new sources. Verifying a source gives its
 * compile verdict too, in the same round trip. With the run's verdict cache (harness/cache), a verdict an
 * earlier run stored for the same interpreter identity is used without starting the interpreter at all.
 */
export class InterpreterInventory {
  readonly interpreters: readonly PythonInterpreter[];
  /** One line per family or image that is missing, with the reason. */
  readonly absent: readonly string[];
  readonly #known = new Map<PythonInterpreter, Known>();
  readonly #about = new Map<PythonInterpreter, Promise<About>>();

  readonly #cache: VerdictCache | undefined;

  constructor(interpreters: readonly PythonInterpreter[], absent: readonly string[] = [], cache?: VerdictCache) {
    this.interpreters = [...interpreters].sort(
      (a, b) => compareVersions(a.version, b.version) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind],
    );
    this.absent = absent;
    this.#cache = cache;
  }

  static async discover(options: InventoryOptions = {}): Promise<InterpreterInventory> {
    const interpreters: PythonInterpreter[] = [];
    const absent: string[] = [];
    const pyodide = options.pyodide ?? true;
    if (pyodide !== false) {
      const versions = pyodide === true ? PYODIDE_PYTHON_VERSIONS.filter(pyodideInstalled) : pyodide;
      // A Pyodide that cannot start here is an absent checker, said once, not a failure of every SDK it would check.
      const why = versions.length > 0 ? pyodideUnavailable(pyodidePackageDir(versions[0]!)) : undefined;
      if (why === undefined) interpreters.push(...pyodideInterpreters(versions, options.snapshots));
      else absent.push(`pyodide: ${why}`);
    }
    // Images and local binaries are looked for at once: discovery is on the first Python pair's path.
    const [containers, locals] = await Promise.all([
      (options.containers ?? true) ? containerInterpreters() : undefined,
      (options.local ?? true) ? discoverInterpreters(options.cache) : undefined,
    ]);
    if (containers !== undefined) {
      interpreters.push(...containers.interpreters);
      absent.push(...containers.absent);
    }
    if (locals !== undefined) {
      if (locals.length === 0) absent.push('local: no python3.X on PATH or under pyenv');
      interpreters.push(...locals.map((f) => new LocalInterpreter(f)));
    }
    return new InterpreterInventory(interpreters, absent, options.cache);
  }

  /** Compiles `sources` on one interpreter; an empty batch still measures its version and Unicode once. */
  compileOn(interpreter: PythonInterpreter, sources: readonly string[]): Promise<CompileReport> {
    const known = this.#knownOf(interpreter);
    const keys = sources.map(sha256);
    const fresh = new Map<string, string>();
    keys.forEach((key, i) => {
      // A source verified (or being verified) has its compile verdict from the same batch.
      const verified = known.verified.get(key);
      if (verified !== undefined && !known.compiled.has(key))
        remember(
          known.compiled,
          key,
          verified.then(({ python, unicode, compiled }) => ({ python, unicode, outcome: compiled })),
        );
      if (!known.compiled.has(key)) fresh.set(key, sources[i]!);
    });
    if (fresh.size > 0) {
      const group = this.#judgeCompiles(interpreter, fresh);
      for (const key of fresh.keys())
        remember(
          known.compiled,
          key,
          group.then((answers) => answers.get(key)!),
        );
    }
    if (keys.length === 0) return this.#aboutOf(interpreter).then((about) => ({ ...about, results: [] }));
    return Promise.all(keys.map((key) => known.compiled.get(key)!)).then((answers) => ({
      python: answers[0]!.python,
      unicode: answers[0]!.unicode,
      results: answers.map((a) => a.outcome),
    }));
  }

  /**
   * Compiles `sources` on one interpreter and executes each that compiled as a module (see
   * PythonInterpreter.verify): one round trip for both verdicts, cached alike.
   */
  verifyOn(interpreter: PythonInterpreter, sources: readonly string[]): Promise<VerifyReport> {
    const known = this.#knownOf(interpreter);
    const keys = sources.map(sha256);
    const fresh = new Map<string, string>();
    keys.forEach((key, i) => {
      if (!known.verified.has(key)) fresh.set(key, sources[i]!);
    });
    if (fresh.size > 0) {
      const group = this.#judgeVerdicts(interpreter, fresh);
      for (const key of fresh.keys()) {
        const verdict = group.then((verdicts) => verdicts.get(key)!);
        remember(known.verified, key, verdict, (v) => v.importError === undefined);
        if (!known.compiled.has(key))
          remember(
            known.compiled,
            key,
            verdict.then(({ python, unicode, compiled }) => ({ python, unicode, outcome: compiled })),
          );
      }
    }
    if (keys.length === 0) return this.#aboutOf(interpreter).then((about) => ({ ...about, results: [], imports: [] }));
    return Promise.all(keys.map((key) => known.verified.get(key)!)).then((verdicts) => {
      const importError = verdicts.find((v) => v.importError !== undefined)?.importError;
      return {
        python: verdicts[0]!.python,
        unicode: verdicts[0]!.unicode,
        results: verdicts.map((v) => v.compiled),
        imports: verdicts.map((v) => v.imported),
        ...(importError !== undefined ? { importError } : {}),
      };
    });
  }

  /** Compiles `sources` on every interpreter at once; an interpreter that fails to answer says why. */
  compileEverywhere(sources: readonly string[]): Promise<MatrixAnswer[]> {
    return this.#everywhere((interpreter) => this.compileOn(interpreter, sources));
  }

  /** Compiles and executes `sources` on every interpreter at once, one round trip per interpreter. */
  verifyEverywhere(sources: readonly string[]): Promise<Array<MatrixAnswer<VerifyReport>>> {
    return this.#everywhere((interpreter) => this.verifyOn(interpreter, sources));
  }

  #everywhere<R extends CompileReport>(
    batch: (interpreter: PythonInterpreter) => Promise<R>,
  ): Promise<Array<MatrixAnswer<R>>> {
    return Promise.all(
      this.interpreters.map((interpreter) =>
        batch(interpreter).then(
          (report) => ({ interpreter, report }),
          (error: unknown) => ({ interpreter, error: error instanceof Error ? error.message : String(error) }),
        ),
      ),
    );
  }

  #knownOf(interpreter: PythonInterpreter): Known {
    let known = this.#known.get(interpreter);
    if (known === undefined) {
      known = { compiled: new Map(), verified: new Map() };
      this.#known.set(interpreter, known);
    }
    return known;
  }

  /** What `interpreter` says about itself, from any answer it gave, else from an empty batch (run once). */
  #aboutOf(interpreter: PythonInterpreter): Promise<About> {
    let about = this.#about.get(interpreter);
    if (about === undefined) {
      const known = this.#knownOf(interpreter);
      const any: Promise<About> | undefined = [...known.compiled.values(), ...known.verified.values()][0];
      about = any ?? interpreter.compile([]);
      this.#about.set(interpreter, about);
      about.catch(() => this.#about.delete(interpreter));
    }
    return about.then(({ python, unicode }) => ({ python, unicode }));
  }

  /** The verdict cache and the key parts of `interpreter`'s verdicts, when the run has a cache. */
  async #cacheFor(
    interpreter: PythonInterpreter,
  ): Promise<{ cache: VerdictCache; parts: (key: string) => string[] } | undefined> {
    const cache = this.#cache;
    const identity = cache === undefined ? undefined : await interpreter.identity().catch(() => undefined);
    if (cache === undefined || identity === undefined) return undefined;
    return { cache, parts: (key) => [identity, CHECKERS, key] };
  }

  /** Compile verdicts on `fresh` (by key): from the verdict cache where it has them, the rest in one batch. */
  async #judgeCompiles(
    interpreter: PythonInterpreter,
    fresh: ReadonlyMap<string, string>,
  ): Promise<Map<string, Answer>> {
    const stored = await this.#cacheFor(interpreter);
    const answers = new Map<string, Answer>();
    if (stored !== undefined) {
      await Promise.all(
        [...fresh.keys()].map(async (key) => {
          const cached = await stored.cache.get('compile', stored.parts(key), isAnswer);
          if (cached !== undefined) answers.set(key, cached);
        }),
      );
    }
    const missing = [...fresh].filter(([key]) => !answers.has(key));
    if (missing.length === 0) return answers;
    const report = await interpreter.compile(missing.map(([, source]) => source));
    await Promise.all(
      missing.map(async ([key], i) => {
        const answer = { python: report.python, unicode: report.unicode, outcome: report.results[i]! };
        answers.set(key, answer);
        await stored?.cache.put('compile', stored.parts(key), answer);
      }),
    );
    return answers;
  }

  /**
   * Verdicts on `fresh` (by key): from the verdict cache where it has them (a source that does not compile
   * needs no module verdict), the rest in one verify batch, whose compile and module verdicts are both stored.
   */
  async #judgeVerdicts(
    interpreter: PythonInterpreter,
    fresh: ReadonlyMap<string, string>,
  ): Promise<Map<string, Verdict>> {
    const stored = await this.#cacheFor(interpreter);
    const verdicts = new Map<string, Verdict>();
    if (stored !== undefined) {
      await Promise.all(
        [...fresh.keys()].map(async (key) => {
          const compiled = await stored.cache.get('compile', stored.parts(key), isAnswer);
          if (compiled === undefined) return;
          const { python, unicode, outcome } = compiled;
          if (!outcome.ok) return verdicts.set(key, { python, unicode, compiled: outcome, imported: null });
          const imported = await stored.cache.get('import', stored.parts(key), isAnswer);
          if (imported !== undefined)
            verdicts.set(key, { python, unicode, compiled: outcome, imported: imported.outcome });
        }),
      );
    }
    const missing = [...fresh].filter(([key]) => !verdicts.has(key));
    if (missing.length === 0) return verdicts;
    const report = await interpreter.verify(missing.map(([, source]) => source));
    const { python, unicode, importError } = report;
    await Promise.all(
      missing.map(async ([key], i) => {
        const compiled = report.results[i]!;
        const imported = report.imports[i] ?? null;
        verdicts.set(key, {
          python,
          unicode,
          compiled,
          imported,
          ...(importError !== undefined ? { importError } : {}),
        });
        await stored?.cache.put('compile', stored.parts(key), { python, unicode, outcome: compiled });
        if (imported !== null && importError === undefined)
          await stored?.cache.put('import', stored.parts(key), { python, unicode, outcome: imported });
      }),
    );
    return verdicts;
  }

  /**
   * Starts the checkers of the local interpreters and boots the Pyodide ones at once, so the first batch of
   * each finds it running; resolves once all have started or failed to (a batch then says why). Containers
   * start on their first batch: one caught starting by an interrupt or a kill of the host would be left
   * behind, its tether not yet attached.
   */
  async start(): Promise<void> {
    await Promise.all(
      this.interpreters.filter((i) => i.kind !== 'container').map((interpreter) => interpreter.start()),
    );
  }

  /** Stops every Pyodide instance and container this inventory started. */
  async dispose(): Promise<void> {
    const outcomes = await Promise.allSettled(this.interpreters.map((i) => i.dispose()));
    const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    if (failures.length > 0) throw new AggregateError(failures, 'stopping the Python interpreters failed');
  }
}
