import type { Language } from '../../runtimes/seam/types.js';
import { RUNTIME_LANGUAGE, type RuntimeName } from '../scenario/types.js';

/** How the gate mounts one runtime: its plugin (source path) and the config of the `runtime` entry. */
export interface RuntimeTarget {
  name: RuntimeName;
  language: Language;
  plugin: string;
  config: Record<string, unknown>;
}

const PLUGINS: Readonly<Record<RuntimeName, { plugin: string; config: Record<string, unknown> }>> = {
  typescript: { plugin: 'runtimes/worker/plugin', config: {} },
  python: { plugin: 'runtimes/cpython/plugin', config: { isolation: 'process' } },
  // The gate checks for Docker itself and skips the container plainly; a silent fallback would snapshot a process run.
  'python-container': { plugin: 'runtimes/cpython/plugin', config: { isolation: 'container', fallback: 'error' } },
  pyodide: { plugin: 'runtimes/pyodide/plugin', config: {} },
};

/**
 * The runtime entry for a scenario: every runtime comes from the process-wide pool (`shared`), so containers
 * and Pyodide start once per gate run; scenario settings such as `timeoutMs` go on top.
 */
export function runtimeTarget(name: RuntimeName, scenarioConfig: Record<string, unknown>): RuntimeTarget {
  const { plugin, config } = PLUGINS[name];
  return { name, language: RUNTIME_LANGUAGE[name], plugin, config: { ...config, ...scenarioConfig, shared: true } };
}
