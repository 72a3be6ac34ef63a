import type { BridgeConfig } from '../seam/calls.js';
import { LIMIT_BOUNDS, parseRuntimeOptions } from '../seam/options.js';

/** Limits of the TypeScript worker runtime; every field is optional. */
export interface WorkerRuntimeConfig extends BridgeConfig {
  /** Time budget of one run, in milliseconds (default 30,000). A run over it is stopped: kind `timeout`. */
  timeoutMs?: number;
  /** V8 heap limit of the worker, in MB (default 256). A program over it ends with kind `worker-exit`. */
  heapMb?: number;
  /**
   * Cap on the program's output (default 1,000,000 bytes; the rule is in runtimes/seam/output.ts): kind `output-limit`.
   */
  outputLimitBytes?: number;
  /** Borrow the runtime from the process-wide pool (see runtimes/seam/plugin.ts). */
  shared?: boolean;
}

export const WORKER_DEFAULTS = { timeoutMs: 30_000, heapMb: 256, outputLimitBytes: 1_000_000 } as const;

/** Checks a raw config (from cordis.yml or code) and says which field is wrong and what is allowed. */
export function parseWorkerConfig(raw: unknown): WorkerRuntimeConfig {
  return parseRuntimeOptions<WorkerRuntimeConfig>('worker', raw, {
    integers: { ...LIMIT_BOUNDS, heapMb: [16, 16_384] },
  });
}
