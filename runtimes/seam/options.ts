/**
 * One validation for the options of every runtime: a runtime's config (from `cordis.yml`, the CLI or code)
 * and a request's own `timeoutMs`. A value outside its bounds is a usage error, never clamped: a budget of
 * 99,999,999,999 ms would overflow Node's timers (they fire at once past 2^31 - 1 ms).
 */

/** Inclusive bounds of the integer options that every runtime shares. */
export const LIMIT_BOUNDS = {
  timeoutMs: [1, 3_600_000],
  outputLimitBytes: [1, 1_000_000_000],
  // What one tool call may carry each way (see BRIDGE_LIMITS): at most 64 MiB, so that no value a program or a
  // tool makes takes the host past its heap, and at most 900 levels, within what every guest's decoder reads.
  bridgeBytes: [1, 64 * 1024 * 1024],
  bridgeDepth: [1, 900],
} as const satisfies Record<string, readonly [number, number]>;

/** An option that is missing, mistyped or out of bounds: the caller's mistake, exit 2 at the command line. */
export class RuntimeOptionError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeOptionError';
  }
}

/** Why `value` is not an integer within `[min, max]`, or undefined when it is. */
export function integerProblem(value: unknown, [min, max]: readonly [number, number]): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return undefined;
  return `must be an integer from ${min} to ${max}, got ${typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value))}`;
}

/** What a runtime's config accepts besides `shared`, which every runtime takes. */
export interface OptionSpec {
  /** Integer fields and their inclusive bounds. */
  integers: Record<string, readonly [number, number]>;
  /** Fields with a fixed set of allowed values. */
  choices?: Record<string, readonly unknown[]>;
  /** Fields that are non-empty strings. */
  strings?: readonly string[];
  /** Fields that must be present. */
  required?: readonly string[];
}

/**
 * Checks a raw config against `spec` and returns it; throws RuntimeOptionError naming the runtime, the
 * field and what is allowed. `undefined` and `null` are an empty config.
 */
export function parseRuntimeOptions<T>(runtime: string, raw: unknown, spec: OptionSpec): T {
  const where = `${runtime} runtime config`;
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new RuntimeOptionError(`${where} must be a mapping`);
  const config = raw as Record<string, unknown>;
  const choices = spec.choices ?? {};
  const strings = spec.strings ?? [];
  const known = new Set([...Object.keys(spec.integers), ...Object.keys(choices), ...strings, 'shared']);
  for (const key of Object.keys(config)) {
    if (!known.has(key))
      throw new RuntimeOptionError(`${where}: unknown field "${key}" (known: ${[...known].join(', ')})`);
  }
  for (const key of spec.required ?? []) {
    if (config[key] === undefined) throw new RuntimeOptionError(`${where}: ${key} is required`);
  }
  for (const [key, allowed] of Object.entries(choices)) {
    const value = config[key];
    if (value !== undefined && !allowed.includes(value)) {
      throw new RuntimeOptionError(
        `${where}: ${key} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`,
      );
    }
  }
  for (const [key, bounds] of Object.entries(spec.integers)) {
    const value = config[key];
    const problem = value === undefined ? undefined : integerProblem(value, bounds);
    if (problem !== undefined) throw new RuntimeOptionError(`${where}: ${key} ${problem}`);
  }
  for (const key of strings) {
    const value = config[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new RuntimeOptionError(`${where}: ${key} must be a non-empty string, got ${JSON.stringify(value)}`);
    }
  }
  if (config['shared'] !== undefined && typeof config['shared'] !== 'boolean') {
    throw new RuntimeOptionError(`${where}: shared must be true or false`);
  }
  return config as T;
}

/** The time budget of one run: the request's own when it sets one (checked like the config), else `fallback`. */
export function runTimeoutMs(requested: unknown, fallback: number): number {
  if (requested === undefined) return fallback;
  const problem = integerProblem(requested, LIMIT_BOUNDS.timeoutMs);
  if (problem !== undefined) throw new RuntimeOptionError(`request.timeoutMs ${problem}`);
  return requested as number;
}
