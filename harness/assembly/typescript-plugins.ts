import { importOptional } from '../../runtimes/seam/optional-package.js';

let enabled: Promise<void> | undefined;

export function isTypeScript(file: string): boolean {
  return /\.[cm]?ts$/.test(file);
}

/**
 * Lets the loader import a backend's `.ts` plugins with no build step: types are stripped on import, ESM or
 * CommonJS as the nearest package.json says, like Node does for `.js`. Registered once per process, and
 * only when a composition names a TypeScript file. tsx is an optional peer: without it this throws a
 * MissingPackageError naming the command that installs it.
 */
export function enableTypeScriptPlugins(): Promise<void> {
  enabled ??= (async () => {
    const feature = 'a TypeScript plugin with no build step';
    const [commonJs, modules] = await Promise.all([importOptional('tsx', feature, () => import('tsx/cjs/api')), importOptional('tsx', feature, () => import('tsx/esm/api'))]);
    commonJs.register();
    modules.register();
  })();
  enabled.catch(() => (enabled = undefined));
  return enabled;
}
