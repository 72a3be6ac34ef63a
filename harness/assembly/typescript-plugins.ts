import { register as registerCommonJs } from 'tsx/cjs/api';
import { register as registerModules } from 'tsx/esm/api';

let enabled = false;

export function isTypeScript(file: string): boolean {
  return /\.[cm]?ts$/.test(file);
}

/**
 * Lets the loader import a backend's `.ts` plugins with no build step: types are stripped on import, ESM or
 * CommonJS as the nearest package.json says, like Node does for `.js`. Registered once per process, and
 * only when a composition names a TypeScript file.
 */
export function enableTypeScriptPlugins(): void {
  if (enabled) return;
  registerCommonJs();
  registerModules();
  enabled = true;
}
