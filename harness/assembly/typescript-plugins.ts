import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importOptional } from '../../runtimes/seam/optional-package.js';
import { holdingSecretsItSets } from '../guarded/environment-secrets.js';

type ScopedImport = (specifier: string, parentURL: string) => Promise<unknown>;

let scopedImport: Promise<ScopedImport> | undefined;

export function isTypeScript(file: string): boolean {
  return /\.[cm]?ts$/.test(file);
}

/**
 * tsx registered under a namespace of its own, once per process: only what is imported through the returned
 * function (a plugin and every module it imports, ESM or CommonJS as the nearest package.json says) is
 * compiled. Registered globally, tsx also saw each later import of concord's own modules and their packages:
 * about 0.2 CPU-s of every gate with a `.ts` plugin, and the project's tsconfig `paths` applied to them.
 * tsx is an optional peer: without it this throws a MissingPackageError naming the command that installs it.
 */
function typeScriptImport(): Promise<ScopedImport> {
  scopedImport ??= (async () => {
    const feature = 'a TypeScript plugin with no build step';
    // tsx keeps what it compiled in a folder of its own under the temp dir, which outlives the command; read as
    // its modules load. Its in-memory cache serves one command, and nothing is left behind.
    process.env.TSX_DISABLE_CACHE ??= '1';
    const [commonJs, modules] = await Promise.all([
      importOptional('tsx', feature, () => import('tsx/cjs/api')),
      importOptional('tsx', feature, () => import('tsx/esm/api')),
    ]);
    const namespace = 'concord-plugins';
    commonJs.register({ namespace });
    return modules.register({ namespace }).import;
  })();
  scopedImport.catch(() => (scopedImport = undefined));
  return scopedImport;
}

/**
 * Imports a plugin's module, `specifier` an absolute path or a URL: a `.ts` one with no build step, its types
 * stripped on import, like Node does for `.js`. Every import of a plugin goes through here (the check before
 * boot and the loader's own), so both find the same module in the module cache.
 */
export async function importPluginModule(specifier: string, parentURL: string): Promise<unknown> {
  // The loader names files by their path; read as a URL, a `#` or `%` in a folder's name would cut it short.
  const url = isAbsolute(specifier) ? pathToFileURL(specifier).href : specifier;
  return holdingSecretsItSets(async () =>
    isTypeScript(url) ? (await typeScriptImport())(url, parentURL) : import(url),
  );
}
