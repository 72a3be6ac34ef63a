/**
 * Frames between the host and the Pyodide worker process: one JSON object per line, the host's on the
 * worker's stdin, the worker's on its stdout. Values inside them travel as JSON text. The one exception is a
 * memory snapshot: its bytes go raw on the worker's descriptor 3 (SNAPSHOT_FD), since tens of megabytes as
 * base64 in a JSON line cost a second or more of CPU on each side.
 */

/**
 * The worker's descriptor for memory snapshots, both ways: the host sends the boot's snapshot (or nothing)
 * and ends its side; the worker sends the one the boot frame asked it to make, if any, and closes it while it
 * boots.
 */
export const SNAPSHOT_FD = 3;

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
  /**
   * The length of a memory snapshot of an earlier boot of this release, sent on SNAPSHOT_FD, to boot from
   * instead of starting the interpreter afresh. Untrusted: one that does not load (or arrives short) is
   * dropped and the interpreter boots afresh.
   */
  snapshotBytes?: number;
  /**
   * Make a snapshot of this boot (after SNAPSHOT_PRELOAD), send it on SNAPSHOT_FD and its length in a `snapshot` frame
   * before `ready`.
   */
  makeSnapshot?: boolean;
}

/** The standard modules the guest and the driver import, loaded before a snapshot is taken so it holds them. */
export const SNAPSHOT_PRELOAD = [
  'ast',
  'asyncio',
  'builtins',
  'gc',
  'json',
  'math',
  'os',
  're',
  'selectors',
  'signal',
  'traceback',
  'types',
  'unicodedata',
] as const;

export type HostMessage =
  | ({ type: 'boot' } & PyodideBoot)
  | { type: 'run'; runId: number; program: string; namespacesJson: string; outputLimitBytes: number }
  | { type: 'reply'; runId: number; callId: number; replyJson: string }
  | { type: 'compile'; requestId: number; sourcesJson: string };

/**
 * How the interpreter booted: from a snapshot, afresh, or afresh because the snapshot it was given did not load (why).
 */
export type SnapshotUse = 'loaded' | 'made' | 'none' | { rejected: string };

export type WorkerMessage =
  | { type: 'ready'; python: string; unicode: string; snapshot?: SnapshotUse }
  /** The length of the memory snapshot the boot frame asked for, sent on SNAPSHOT_FD; only taken before `ready`. */
  | { type: 'snapshot'; bytes: number }
  | { type: 'call'; runId: number; callId: number; namespace: string; member: string; argsJson: string }
  | { type: 'log'; runId: number; line: string }
  /** `heapBytes`: the WebAssembly heap after the run (it never shrinks). */
  | { type: 'done'; runId: number; outcomeJson: string; heapBytes: number }
  | { type: 'compiled'; requestId: number; resultsJson: string }
  /** The interpreter can no longer be trusted (boot failed, or Pyodide hit a fatal error). */
  | { type: 'fatal'; message: string };
