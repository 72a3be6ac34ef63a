import type { BridgeConfig } from '../seam/calls.js';
import { LIMIT_BOUNDS, parseRuntimeOptions } from '../seam/options.js';

export interface CpythonRuntimeConfig extends BridgeConfig {
  /** `process`: a local interpreter; `container`: a runtime image under Docker. */
  isolation: 'process' | 'container';
  /** Interpreter for the process isolation (a name looked up on PATH, or a path). Default `python3`. */
  python?: string;
  /** Image for the container isolation. Default the floor image, `concord-cpython:3.9`. */
  image?: string;
  /** Time budget of one run. Default 30 000. */
  timeoutMs?: number;
  /**
   * Memory of one run: the address space of each of its processes (RLIMIT_AS) and, as root where the host
   * has a memory cgroup, of all its processes together. Default 512.
   */
  memoryMb?: number;
  /** What a `process` run may keep in its folder (cwd, TMPDIR, HOME), as root in a mount namespace. Default 256. */
  diskMb?: number;
  /** Cap on the UTF-8 bytes of logs plus the returned value's JSON (kind `output-limit`). Default 1 000 000. */
  outputLimitBytes?: number;
  /** What the container isolation does when no Docker engine (or image) answers. Default `process`. */
  fallback?: 'process' | 'error';
}

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
