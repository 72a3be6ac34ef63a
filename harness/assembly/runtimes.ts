import { CPYTHON_IMAGES, cpythonImage, FLOOR_IMAGE } from '../../runtimes/cpython/images.js';
import {
  DEFAULT_PYODIDE_VERSION,
  PYODIDE_PYTHON_VERSIONS,
  pyodidePackageDir,
} from '../../runtimes/pyodide/versions.js';
import type { CodeRuntime, Language } from '../../runtimes/seam/types.js';
import { RUNTIME_NAMES, type RuntimeName, runtimeLanguage } from '../runtime-names.js';
import type { Session } from '../session.js';

export interface RuntimeEntry {
  /** What it runs in, for help texts: `local python3`. */
  runsIn: string;
  /** The runtime plugin (source path below the package) and the config of the composition's `runtime` entry. */
  plugin: string;
  config: Readonly<Record<string, unknown>>;
  /** The interpreter versions `concord run --runtime NAME:3.X` accepts; absent when the runtime takes none. */
  versions?: readonly string[];
  /** Why it cannot run on this machine, in one plain message; absent when it always can. */
  unavailable?(): Promise<string | undefined>;
  /** What an available runtime runs in, said once per run (only for runtimes that can be unavailable). */
  availableNote?: string;
  /** The runtime alone, outside any composition (`concord run`); `version` is one of `versions`. */
  create(options: { version?: string; timeoutMs?: number }): Promise<CodeRuntime>;
}

const timeout = (timeoutMs: number | undefined): { timeoutMs?: number } =>
  timeoutMs === undefined ? {} : { timeoutMs };

/** How each runtime concord knows runs and starts: every command, check, probe and report reads it. */
export const RUNTIMES: Readonly<Record<RuntimeName, RuntimeEntry>> = {
  typescript: {
    runsIn: 'worker thread',
    plugin: 'runtimes/worker/plugin',
    config: {},
    create: async ({ timeoutMs }) =>
      (await import('../../runtimes/worker/index.js')).createWorkerRuntime(timeout(timeoutMs)),
  },
  python: {
    runsIn: 'local python3',
    plugin: 'runtimes/cpython/plugin',
    config: { isolation: 'process' },
    unavailable: async () => (await import('../../runtimes/cpython/index.js')).processInterpreterUnavailable(),
    create: async ({ timeoutMs }) =>
      (await import('../../runtimes/cpython/runtime.js')).createCpythonRuntime({
        isolation: 'process',
        ...timeout(timeoutMs),
      }),
  },
  pyodide: {
    runsIn: 'CPython in WebAssembly',
    plugin: 'runtimes/pyodide/plugin',
    config: {},
    versions: PYODIDE_PYTHON_VERSIONS,
    unavailable: async () => {
      const { pyodideUnavailable } = await import('../../runtimes/pyodide/sandbox.js');
      return pyodideUnavailable(pyodidePackageDir(DEFAULT_PYODIDE_VERSION));
    },
    create: async ({ version, timeoutMs }) => {
      const { createPyodideRuntime } = await import('../../runtimes/pyodide/runtime.js');
      const { isPyodidePythonVersion } = await import('../../runtimes/pyodide/versions.js');
      return createPyodideRuntime({ ...(isPyodidePythonVersion(version) ? { version } : {}), ...timeout(timeoutMs) });
    },
  },
  'python-container': {
    runsIn: 'Docker image',
    plugin: 'runtimes/cpython/plugin',
    // Asked for by name, a container never falls back silently: a process run would be snapshotted as a container's.
    config: { isolation: 'container', fallback: 'error' },
    versions: CPYTHON_IMAGES.map((image) => image.python),
    unavailable: async () => (await import('../../runtimes/seam/docker-engine.js')).containerUnavailable(FLOOR_IMAGE),
    availableNote: `runs in ${FLOOR_IMAGE} (a Docker engine answers)`,
    create: async ({ version, timeoutMs }) =>
      (await import('../../runtimes/cpython/runtime.js')).createCpythonRuntime({
        isolation: 'container',
        fallback: 'error',
        ...(version === undefined ? {} : { image: cpythonImage(version).tag }),
        ...timeout(timeoutMs),
      }),
  },
};

/** The runtimes among `wanted` that cannot run here, each with its reason; every question is asked once. */
export async function unavailableRuntimes(wanted: Iterable<RuntimeName>): Promise<Map<RuntimeName, string>> {
  const reasons = new Map<RuntimeName, string>();
  for (const name of RUNTIME_NAMES) {
    if (![...wanted].includes(name)) continue;
    const reason = await RUNTIMES[name].unavailable?.();
    if (reason !== undefined) reasons.set(name, reason);
  }
  return reasons;
}

/** How the gate mounts one runtime: its plugin (source path) and the config of the `runtime` entry. */
export interface RuntimeTarget {
  name: RuntimeName;
  language: Language;
  plugin: string;
  config: Record<string, unknown>;
  /** The session whose pool the runtime is borrowed from (absent: the process's default pool). */
  session?: Session;
}

/**
 * The runtime entry for a scenario: every runtime comes from the session's pool (`shared`), so containers
 * and Pyodide start once per gate run; scenario settings such as `timeoutMs` go on top.
 */
export function runtimeTarget(
  name: RuntimeName,
  scenarioConfig: Record<string, unknown>,
  session?: Session,
): RuntimeTarget {
  const { plugin, config } = RUNTIMES[name];
  return {
    name,
    language: runtimeLanguage(name),
    plugin,
    config: { ...config, ...scenarioConfig, shared: true },
    ...(session ? { session } : {}),
  };
}
