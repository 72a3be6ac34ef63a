import type { Language } from '../runtimes/seam/types.js';

/**
 * The runtimes concord knows, by name. The order is the gate's order and the cheapest first (a probe only
 * renders, so it takes the cheapest of a language). What each runs in and how it starts is
 * `harness/assembly/runtimes.ts`.
 */
export const RUNTIME_NAMES = ['typescript', 'python', 'pyodide', 'python-container'] as const;
export type RuntimeName = (typeof RUNTIME_NAMES)[number];

const LANGUAGE: Readonly<Record<RuntimeName, Language>> = {
  typescript: 'typescript',
  python: 'python',
  pyodide: 'python',
  'python-container': 'python',
};

export function runtimeLanguage(name: RuntimeName): Language {
  return LANGUAGE[name];
}

/** Whether a name read from outside (an option, a results file) is a runtime concord knows. */
export function isRuntimeName(name: string): name is RuntimeName {
  return (RUNTIME_NAMES as readonly string[]).includes(name);
}
