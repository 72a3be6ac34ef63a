import type { CompileOutcome } from '../../runtimes/pyodide/compile.js';

export type { CompileOutcome } from '../../runtimes/pyodide/compile.js';

/** Where an interpreter lives: in-process WebAssembly, a runtime container image, or a binary on this machine. */
export type InterpreterKind = 'pyodide' | 'container' | 'local';

/** What one batch of `compile()` calls (or module executions) produced, with what the interpreter says about itself. */
export interface CompileReport {
  /** `sys.version_info` as `major.minor.micro`. */
  python: string;
  /** `unicodedata.unidata_version`: the table the tokenizer reads identifiers with. */
  unicode: string;
  /** `sys.version`: the version with its build (date, compiler), where the interpreter says it. */
  build?: string;
  /** One outcome per source, in order. */
  results: CompileOutcome[];
}

/**
 * A compile batch whose sources that compiled were then executed as modules, in the same process, exec or
 * instance: `imports` holds one outcome per source, null where the source did not compile (nothing was
 * executed). `importError` instead says why executing failed as a whole (the compile verdicts still hold).
 */
export interface VerifyReport extends CompileReport {
  imports: Array<CompileOutcome | null>;
  importError?: string;
}

/** One Python interpreter concord can compile sources with. */
export interface PythonInterpreter {
  /** Short and unique within an inventory, e.g. `pyodide 3.13`, `container 3.9`, `local 3.11`. */
  readonly label: string;
  readonly kind: InterpreterKind;
  /** `major.minor`. */
  readonly version: string;
  /** Where it comes from: the Pyodide release, the image tag or the executable path. */
  readonly detail: string;
  /**
   * The Unicode version known before running anything: measured at discovery for local interpreters, the
   * release table for Pyodide, the CPython→Unicode map for images. A compile report holds the measured one.
   */
  readonly unicode: string;
  /**
   * What makes a verdict of this interpreter reusable in a later run: its version and build (what a local
   * interpreter says of itself when asked, once a run, whatever its path leads to; an image's id; a Pyodide release
   * and its driver). Two interpreters with one identity judge every source alike.
   */
  identity(): Promise<string>;
  /** Compiles every source as a module (never runs it), all in one process, exec or instance. */
  compile(sources: readonly string[]): Promise<CompileReport>;
  /**
   * Compiles every source, then executes each that compiled as a fresh module (see import-script.ts), all
   * in one round trip (one process, exec or instance), with no network and each module bounded in time; an
   * execution's failure carries the traceback's line and column.
   */
  verify(sources: readonly string[]): Promise<VerifyReport>;
  /**
   * Starts now what the interpreter keeps running for its batches (a local checker process, a container and
   * its checker, a Pyodide boot), so the first batch does not wait for it; resolves once it runs. A failure is
   * not thrown: the first batch meets it and says why.
   */
  start(): Promise<void>;
  /** Stops what the interpreter keeps running between batches; compiling again starts it anew. */
  dispose(): Promise<void>;
}

/** Orders versions numerically: 3.9 before 3.11. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** One cell of the matrix: how one interpreter took the SDK of one scenario × runtime. */
export interface StubCell {
  scenario: string;
  runtime: string;
  interpreter: string;
  /** `major.minor` of the interpreter. */
  version: string;
  /** What the interpreter reported: `3.13.2`, `15.1.0`; absent when it could not run. */
  python?: string;
  unicode?: string;
  /** Whether the interpreter is below the floor the stubs promise (its rejections are notes only). */
  belowFloor: boolean;
  /**
   * `ok`: compiles and executes as a module; `rejected`: does not compile; `import-failed`: compiles but
   * raises when executed; `unavailable`: the interpreter could not run one or the other.
   */
  outcome: 'ok' | 'rejected' | 'import-failed' | 'unavailable';
  /** The error with line and column, or why the interpreter could not run. */
  error?: string;
}
