import { LIMIT_BOUNDS, parseRuntimeOptions } from '../seam/options.js';
import type { CpythonRuntimeConfig } from './runtime.js';

/** The cpython plugin's config in `cordis.yml`: the runtime's config plus the pool switch. */
export interface CpythonPluginConfig extends CpythonRuntimeConfig {
  /** Borrow the runtime from the process-wide pool (see runtimes/seam/plugin.ts). */
  shared?: boolean;
}

/** Checks a raw config and says which field is wrong and what is allowed. `isolation` is required. */
export function parseCpythonConfig(raw: unknown): CpythonPluginConfig {
  return parseRuntimeOptions<CpythonPluginConfig>('cpython', raw, {
    integers: { ...LIMIT_BOUNDS, memoryMb: [32, 65_536], diskMb: [1, 65_536] },
    choices: { isolation: ['process', 'container'], fallback: ['process', 'error'] },
    strings: ['python', 'image'],
    required: ['isolation'],
  });
}
