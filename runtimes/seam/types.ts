/** The contract between the tool layer and every code-runtime backend. */

export type Language = 'typescript' | 'python';
export type Isolation = 'worker-thread' | 'process' | 'container' | 'wasm';

/** A value that survives JSON without loss: finite numbers, plain objects, dense arrays. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * A host function a program may call; a rejection reaches the program as the namespace's error class, with
 * the thrown error's message, its `code` (a string or a safe integer) and its `data` (lossless JSON).
 */
export type BindingFunction = (args: JsonValue) => Promise<JsonValue>;

/**
 * The error class a namespace raises when one of its functions fails. Each instance carries the message,
 * the member's name in `memberProperty`, and `code` and `data` (absent: `undefined` / `None`).
 */
export interface BindingErrorClass {
  /** Global name of the class inside the program, e.g. `ToolCallError`. */
  name: string;
  /** Property on each instance that carries the failed member's name, e.g. `toolName`. */
  memberProperty: string;
}

/** One global the program sees, e.g. `tools`, with its async members. */
export interface BindingNamespace {
  name: string;
  /** Member name → host function. A Map, so names such as `__proto__` stay ordinary keys. */
  functions: ReadonlyMap<string, BindingFunction>;
  errorClass?: BindingErrorClass;
}

export interface RunRequest {
  /** The body of an async function: top-level `await` and `return` work. */
  program: string;
  bindings: readonly BindingNamespace[];
  signal?: AbortSignal;
  /** Overrides the runtime's configured time budget for this run. */
  timeoutMs?: number;
}

/** Every way a run can fail, as `RunError.kind` names it (a scenario's `expect.runs` takes each, and `ok`). */
export const RUN_ERROR_KINDS = [
  'exception',
  'timeout',
  'abort',
  'worker-exit',
  'invalid-output',
  'output-limit',
  'bridge-limit',
] as const;

export type RunErrorKind = (typeof RUN_ERROR_KINDS)[number];

export interface RunError {
  kind: RunErrorKind;
  message: string;
  /** The program-side error's class name, when there was one (e.g. `ValueError`, `TypeError`). */
  name?: string;
}

export interface RunResult {
  value?: JsonValue;
  logs: string[];
  error?: RunError;
}

export interface CodeRuntime {
  readonly language: Language;
  readonly isolation: Isolation;
  run(request: RunRequest): Promise<RunResult>;
  /**
   * Optional: starts now what the first run would otherwise start on demand (an interpreter that takes
   * seconds to boot), so a host can time the start apart from the runs. Resolves once runs can start; a
   * start that fails resolves too: the run that needs it reports the failure.
   */
  start?(): Promise<void>;
  /** Releases processes, containers and workers. Idempotent. */
  dispose(): Promise<void>;
}
