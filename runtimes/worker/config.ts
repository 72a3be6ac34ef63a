/** Limits of the TypeScript worker runtime; every field is optional. */
export interface WorkerRuntimeConfig {
  /** Time budget of one run, in milliseconds (default 30,000). A run over it is stopped: kind `timeout`. */
  timeoutMs?: number;
  /** V8 heap limit of the worker, in MB (default 256). A program over it ends with kind `worker-exit`. */
  heapMb?: number;
  /** Cap on the UTF-8 bytes of logs plus the returned value's JSON (default 1,000,000): kind `output-limit`. */
  outputLimitBytes?: number;
  /** Borrow the runtime from the process-wide pool (see runtimes/seam/plugin.ts). */
  shared?: boolean;
}

export const WORKER_DEFAULTS = { timeoutMs: 30_000, heapMb: 256, outputLimitBytes: 1_000_000 } as const;

const LIMITS = {
  timeoutMs: [1, 3_600_000],
  heapMb: [16, 16_384],
  outputLimitBytes: [1, 1_000_000_000],
} as const;

/** Checks a raw config (from cordis.yml or code) and says which field is wrong and what is allowed. */
export function parseWorkerConfig(raw: unknown): WorkerRuntimeConfig {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new TypeError('worker runtime config must be a mapping');
  const config = raw as Record<string, unknown>;
  const known = new Set([...Object.keys(LIMITS), 'shared']);
  for (const key of Object.keys(config)) {
    if (!known.has(key)) throw new TypeError(`worker runtime config: unknown field "${key}" (known: ${[...known].join(', ')})`);
  }
  for (const [key, [min, max]] of Object.entries(LIMITS)) {
    const value = config[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new TypeError(`worker runtime config: ${key} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
    }
  }
  if (config['shared'] !== undefined && typeof config['shared'] !== 'boolean') {
    throw new TypeError('worker runtime config: shared must be true or false');
  }
  return config as WorkerRuntimeConfig;
}
