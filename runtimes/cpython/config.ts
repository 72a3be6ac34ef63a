import type { CpythonRuntimeConfig } from './runtime.js';

/** The cpython plugin's config in `cordis.yml`: the runtime's config plus the pool switch. */
export interface CpythonPluginConfig extends CpythonRuntimeConfig {
  /** Borrow the runtime from the process-wide pool (see runtimes/seam/plugin.ts). */
  shared?: boolean;
}

const INTEGER_LIMITS = {
  timeoutMs: [1, 3_600_000],
  memoryMb: [32, 65_536],
  outputLimitBytes: [1, 1_000_000_000],
} as const;

const CHOICES = {
  isolation: ['process', 'container'],
  fallback: ['process', 'error'],
} as const;

const STRINGS = ['python', 'image'] as const;

/** Checks a raw config and says which field is wrong and what is allowed. `isolation` is required. */
export function parseCpythonConfig(raw: unknown): CpythonPluginConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new TypeError('cpython runtime config must be a mapping with at least `isolation: process | container`');
  }
  const config = raw as Record<string, unknown>;
  const known = new Set<string>([...Object.keys(INTEGER_LIMITS), ...Object.keys(CHOICES), ...STRINGS, 'shared']);
  for (const key of Object.keys(config)) {
    if (!known.has(key)) throw new TypeError(`cpython runtime config: unknown field "${key}" (known: ${[...known].join(', ')})`);
  }
  if (config['isolation'] === undefined) throw new TypeError('cpython runtime config: isolation is required (process or container)');
  for (const [key, allowed] of Object.entries(CHOICES)) {
    const value = config[key];
    if (value !== undefined && !(allowed as readonly unknown[]).includes(value)) {
      throw new TypeError(`cpython runtime config: ${key} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
    }
  }
  for (const [key, [min, max]] of Object.entries(INTEGER_LIMITS)) {
    const value = config[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)) {
      throw new TypeError(`cpython runtime config: ${key} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
    }
  }
  for (const key of STRINGS) {
    const value = config[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new TypeError(`cpython runtime config: ${key} must be a non-empty string, got ${JSON.stringify(value)}`);
    }
  }
  if (config['shared'] !== undefined && typeof config['shared'] !== 'boolean') {
    throw new TypeError('cpython runtime config: shared must be true or false');
  }
  return config as unknown as CpythonPluginConfig;
}
