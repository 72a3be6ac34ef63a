import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

/**
 * A package concord uses only for one feature, so a default install leaves it out: an optional peer
 * dependency, loaded when the feature is used. When it is not installed, the feature fails with one line
 * naming the command that adds it.
 */
export class MissingPackageError extends Error {
  constructor(
    readonly packageName: string,
    feature: string,
  ) {
    super(`${feature} needs ${packageName}, which is not installed: run \`${installCommand(packageName)}\``);
    this.name = 'MissingPackageError';
  }
}

let pinned: Record<string, string> | undefined;

/**
 * `NAME@SPEC` with the version concord is tested with (its `peerDependencies` pin, else its `devDependencies`
 * one); an alias such as `pyodide-0.27@npm:pyodide@0.27.7` installs as one.
 */
export function installSpec(packageName: string): string {
  if (pinned === undefined) {
    const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    pinned = { ...manifest.devDependencies, ...manifest.peerDependencies };
  }
  const spec = pinned[packageName];
  if (spec === undefined) throw new Error(`concord: ${packageName} is no optional dependency of concord`);
  return `${packageName}@${spec}`;
}

/** The command that adds an optional package to the user's project: `npm install --save-dev NAME@SPEC`. */
export function installCommand(packageName: string): string {
  return `npm install --save-dev ${installSpec(packageName)}`;
}

/** Whether `error` says that `packageName` itself (not something it imports) cannot be found. */
function isMissing(error: unknown, packageName: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  if (typeof message !== 'string') return false;
  return message.includes(`'${packageName}'`) || message.includes(`'${packageName}/`);
}

/**
 * Imports an optional package (`load` is `() => import('name')`, so the module keeps its types); throws a
 * MissingPackageError when it is not installed. Any other failure (a broken install) is rethrown as is.
 */
export async function importOptional<T>(packageName: string, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, packageName)) throw new MissingPackageError(packageName, feature);
    throw error;
  }
}

/**
 * Resolves a file of an optional package (`name/file.js`) from concord's own location, or throws a MissingPackageError.
 */
export function resolveOptional(specifier: string, feature: string): string {
  const packageName = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
  try {
    return createRequire(import.meta.url).resolve(specifier);
  } catch (error) {
    if (isMissing(error, packageName)) throw new MissingPackageError(packageName, feature);
    throw error;
  }
}
