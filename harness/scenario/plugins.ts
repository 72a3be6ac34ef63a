import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve as resolveImport } from 'import-meta-resolve';
import { parseAgentConfig, parseToolsConfig } from '../../codemode/index.js';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { inside } from '../guarded/inside.js';
import { InputError } from './error.js';
import type { CompositionEntry, ResolvedPlugin, Scenario } from './types.js';

/** concord's own plugins a scenario may name, each a public entry point of the package. */
export const CONCORD_PLUGINS = ['concord/tools', 'concord/agent'] as const;

/**
 * A package name (optionally `@scope/`) and an optional subpath, in the characters npm allows in names:
 * no colon, no backslash, no leading dot or slash.
 */
const PACKAGE_REFERENCE =
  /^(@[A-Za-z0-9~-][A-Za-z0-9._~-]*\/)?[A-Za-z0-9~-][A-Za-z0-9._~-]*(\/(?!\.\.?(\/|$))[A-Za-z0-9._~@+-]+)*$/;

/** Tried in this order when a relative reference names no extension. */
const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

/**
 * Resolves every plugin reference of the scenario before anything boots: a package name from the project
 * root as Node resolves imports (concord's own names from concord's package), or a `./` / `../` path
 * relative to the scenario file that must stay inside the root. A failure is an InputError at the value.
 */
export function resolveComposition(scenario: Scenario, root: string): Scenario {
  const realRoot = realpathSync(root);
  const composition = scenario.composition.map((entry) => {
    const resolved = resolvePlugin(entry, scenario.file, realRoot);
    if (resolved.concord) checkConcordConfig(entry, resolved.concord, scenario.file);
    return { ...entry, resolved };
  });
  return { ...scenario, composition };
}

/** concord's own plugins say what config they take: a bad one is an input error at its place, before boot. */
const CONFIG_PARSERS: Readonly<Record<string, (raw: unknown) => unknown>> = {
  'concord/tools': parseToolsConfig,
  'concord/agent': parseAgentConfig,
};

function checkConcordConfig(entry: CompositionEntry, plugin: string, scenarioFile: string): void {
  const parse = Object.hasOwn(CONFIG_PARSERS, plugin) ? CONFIG_PARSERS[plugin] : undefined;
  if (!parse) return;
  try {
    parse(entry.config);
  } catch (error) {
    const at = entry.configAt ?? { line: entry.line, column: 1 };
    throw new InputError(
      scenarioFile,
      at.line,
      at.column,
      `entry "${entry.id}" (${plugin}): ${(error as Error).message}`,
      plugin === 'concord/tools'
        ? 'e.g. config: { mode: code } (modes: native, code, both)'
        : 'e.g. config: { persona: You are a helpful assistant. }',
    );
  }
}

function resolvePlugin(entry: CompositionEntry, scenarioFile: string, root: string): ResolvedPlugin {
  const ref = entry.plugin;
  const at = entry.pluginAt ?? { line: entry.line, column: 1 };
  const fail = (problem: string, hint: string) => new InputError(scenarioFile, at.line, at.column, problem, hint);
  if (ref.startsWith('./') || ref.startsWith('../')) return { file: relativePlugin(ref, scenarioFile, root, fail) };
  // A scheme (file:, data:, http:, node:) would let the resolver hand back code from anywhere; no package
  // name holds a colon, so anything with one is refused before resolution is asked.
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(ref);
  if (scheme || !PACKAGE_REFERENCE.test(ref)) {
    const what = scheme ? `has a scheme (${scheme[1]}:)` : 'is neither a package name nor a relative path';
    throw fail(
      `plugin ${JSON.stringify(ref)} ${what}`,
      'write a package name (concord/tools, @team/backend/plugin) or a path starting with ./ or ../ relative to this file',
    );
  }
  if (ref === 'concord' || ref.startsWith('concord/')) {
    if (!(CONCORD_PLUGINS as readonly string[]).includes(ref)) {
      throw fail(
        `concord has no plugin named ${JSON.stringify(ref)}`,
        `concord's plugins are ${CONCORD_PLUGINS.join(', ')}; the runtime and model entries are filled in by the gate`,
      );
    }
    return { file: importTarget(ref, join(packageRoot(), 'package.json'), fail), concord: ref };
  }
  const pathLike = (problem: string, hint: string) => {
    // `src/plugins/orders.ts` reads as a path to a person and as the package `src` to Node: when that file is
    // there, say what to write for it.
    const file = [resolve(dirname(scenarioFile), ref), resolve(root, ref)].find((path) => isFileBelow(root, path));
    if (file === undefined) return fail(problem, hint);
    const named = relative(dirname(scenarioFile), file).split(sep).join('/');
    return fail(
      problem,
      `${JSON.stringify(ref)} is read as a package; for the file ${relative(root, file)} write ${JSON.stringify(named.startsWith('../') ? named : `./${named}`)} (a path starts with ./ or ../ and is relative to this file)`,
    );
  };
  return { file: importTarget(ref, join(root, 'package.json'), pathLike) };
}

/** Whether `ref` (a package name, maybe with a subpath) resolves from the project `root` as an import would. */
export function resolvesAsPackage(ref: string, root: string): boolean {
  try {
    resolveImport(ref, pathToFileURL(join(root, 'package.json')).href);
    return true;
  } catch {
    return false;
  }
}

/** Whether `path` is a regular file (after links, as an import would read it). */
export function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** Whether `path` (absolute, or relative to the working directory) is a regular file inside `root`. */
export function isFileBelow(root: string, path: string): boolean {
  return inside(resolve(path), root) && isFile(path);
}

function relativePlugin(
  ref: string,
  scenarioFile: string,
  root: string,
  fail: (problem: string, hint: string) => InputError,
): string {
  const base = resolve(dirname(scenarioFile), ref);
  const leaves = (where: string) =>
    fail(
      `plugin ${JSON.stringify(ref)} leaves the project root ${root} (it is ${where})`,
      'keep plugins inside the project, or install them as a package and name the package',
    );
  if (!inside(base, root)) throw leaves(base);
  const candidates = extname(base)
    ? [base]
    : [...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => join(base, 'index' + ext))];
  const found = candidates.find(isFile);
  if (!found) {
    throw fail(
      `plugin ${JSON.stringify(ref)} not found: no file ${relative(root, base) || '.'}${extname(base) ? '' : `{${EXTENSIONS.join(',')}}`}`,
      'check the path; it is relative to this scenario file',
    );
  }
  // The real path, so a symlink cannot lead the loader out of the project.
  const real = realpathSync(found);
  if (!inside(real, root)) throw leaves(real);
  return real;
}

function importTarget(
  ref: string,
  parentManifest: string,
  fail: (problem: string, hint: string) => InputError,
): string {
  let url: string;
  try {
    url = resolveImport(ref, pathToFileURL(parentManifest).href);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const hint =
      code === 'ERR_PACKAGE_PATH_NOT_EXPORTED'
        ? 'the package does not export this path; name one of its exports'
        : `install the package in ${dirname(parentManifest)} (npm install ${packageName(ref)}) or fix the name`;
    throw fail(
      `plugin ${JSON.stringify(ref)} cannot be resolved from ${dirname(parentManifest)}: ${(error as Error).message.split('\n')[0]}`,
      hint,
    );
  }
  if (!url.startsWith('file:'))
    throw fail(
      `plugin ${JSON.stringify(ref)} is not a file module (${url})`,
      'name a package whose entry is a JavaScript or TypeScript file',
    );
  return fileURLToPath(url);
}

function packageName(ref: string): string {
  const parts = ref.split('/');
  return ref.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}
