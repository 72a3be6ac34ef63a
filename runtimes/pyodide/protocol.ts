/**
 * Frames between the host and the Pyodide worker process: one JSON object per line, the host's on the
 * worker's stdin, the worker's on its stdout. Values inside them travel as JSON text.
 */

/** Cap on one frame from the worker; the host kills a worker that sends a longer one. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** What the worker needs to boot: the first frame on its stdin. */
export interface PyodideBoot {
  /** Folder of the Pyodide package (its `indexURL`); the worker may read nothing else but its own entry. */
  packageDir: string;
  /** Text of `concord_guest.py` and of `concord_pyodide.py`, written into Pyodide's in-memory filesystem. */
  guestSource: string;
  driverSource: string;
  /** Ceiling for the WebAssembly heap; allocations past it raise MemoryError inside Python. */
  memoryLimitBytes: number;
}

export type HostMessage =
  | ({ type: 'boot' } & PyodideBoot)
  | { type: 'run'; runId: number; program: string; namespacesJson: string; outputLimitBytes: number }
  | { type: 'reply'; runId: number; callId: number; replyJson: string }
  | { type: 'compile'; requestId: number; sourcesJson: string };

export type WorkerMessage =
  | { type: 'ready'; python: string; unicode: string }
  | { type: 'call'; runId: number; callId: number; namespace: string; member: string; argsJson: string }
  | { type: 'log'; runId: number; line: string }
  /** `heapBytes`: the WebAssembly heap after the run (it never shrinks). */
  | { type: 'done'; runId: number; outcomeJson: string; heapBytes: number }
  | { type: 'compiled'; requestId: number; resultsJson: string }
  /** The interpreter can no longer be trusted (boot failed, or Pyodide hit a fatal error). */
  | { type: 'fatal'; message: string };
