import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { ownedTempDir } from '../seam/owned-temp-dir.js';
import { builtModule, packageRoot } from '../seam/package-root.js';

/**
 * The files the sandboxed worker process may read: the Pyodide package folder and the worker's own
 * compiled modules. When the worker runs as another user (nobody, because the host is root), it must be
 * able to read them: in place if every user can, else from copies in a fresh folder under the temp dir.
 */

/** The compiled modules the worker process loads: its entry and what the entry imports. Only node: builtins besides. */
const WORKER_MODULES = [
  'runtimes/pyodide/worker.ts',
  'runtimes/pyodide/protocol.ts',
  'runtimes/pyodide/module-script.ts',
  'runtimes/seam/lines.ts',
];

/** The files one worker may read, and the entry to start. */
export interface SandboxFiles {
  entry: string;
  packageDir: string;
  /** Paths for `--allow-fs-read`: the package folder and each worker module. */
  readable: string[];
  /** Says the worker started from these files is gone: copies no worker reads any more are removed. Once. */
  release(): void;
}

/** Whether a user who is neither owner nor in the group may pass through `dir` and every folder above it. */
function othersCanTraverse(dir: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    if ((statSync(at).mode & 0o001) === 0) return false;
    if (dirname(at) === at) return true;
  }
}

/**
 * Whether a user who is neither owner nor in the group may reach and read `path` (a file, or a folder and its files).
 */
export function othersCanRead(path: string): boolean {
  if (!othersCanTraverse(dirname(path))) return false;
  const stats = statSync(path);
  if (!stats.isDirectory()) return (stats.mode & 0o004) !== 0;
  if ((stats.mode & 0o005) !== 0o005) return false;
  return readdirSync(path, { withFileTypes: true }).every(
    (entry) => !entry.isFile() || (statSync(join(path, entry.name)).mode & 0o004) !== 0,
  );
}

/**
 * Copies of files nobody cannot read in place, one per source path: removed when the last worker started from them
 * is gone (a host that lives on, such as a test worker a suite ends without its exit hooks, keeps none), else when
 * the host exits.
 */
const staged = new Map<string, string>();
let stagingDir: string | undefined;
/** One for each worker started from the copies and not yet gone. */
const stagedUsers = new Set<object>();
function stagingRoot(): string {
  if (stagingDir !== undefined) return stagingDir;
  const dir = ownedTempDir('concord-pyodide');
  chmodSync(dir, 0o755);
  stagingDir = dir;
  return dir;
}

/** Removes the copies now, whoever still holds them; the next copy gets a fresh folder. */
export function removeStagedCopies(): void {
  stagedUsers.clear();
  if (stagingDir === undefined) return;
  rmSync(stagingDir, { recursive: true, force: true });
  stagingDir = undefined;
  staged.clear();
}

/** Copies a file or a flat folder under the staging root, readable by every user. */
function stage(source: string, target: string): string {
  const cached = staged.get(source);
  if (cached !== undefined) return cached;
  const destination = join(stagingRoot(), target);
  mkdirSync(dirname(destination), { recursive: true, mode: 0o755 });
  if (statSync(source).isDirectory()) {
    mkdirSync(destination, { mode: 0o755 });
    for (const entry of readdirSync(source, { withFileTypes: true })) {
      if (!entry.isFile()) continue;
      copyFileSync(join(source, entry.name), join(destination, entry.name));
      chmodSync(join(destination, entry.name), 0o644);
    }
  } else {
    copyFileSync(source, destination);
    chmodSync(destination, 0o644);
  }
  staged.set(source, destination);
  return destination;
}

/**
 * The compiled modules are ES modules; Node decides that from the nearest package.json. Written once per
 * staging folder and never rewritten: a worker booting from it reads this file at any moment, and a rewrite
 * in place would let it see an empty file.
 */
function stageManifest(): void {
  const manifest = join(stagingRoot(), 'package.json');
  if (staged.has(manifest)) return;
  writeFileSync(`${manifest}.tmp`, '{"type":"module"}\n', { mode: 0o644 });
  renameSync(`${manifest}.tmp`, manifest);
  staged.set(manifest, manifest);
}

/**
 * The worker's files, where the worker's user can read them: in place when the worker runs as the host's
 * own user or when every user can read them (an npm install under /work or /home usually can be), else
 * copied into a fresh folder under the temp dir (a checkout under /root, or in a mkdtemp folder, cannot be), once
 * for all the workers that run at a time. `forceCopy` copies whatever the permissions.
 */
export function sandboxFiles(
  packageDir: string,
  options: { otherUser?: boolean; forceCopy?: boolean } = {},
): SandboxFiles {
  const { pyodide, modules } = workerSources(packageDir);
  const copy = options.forceCopy === true || (options.otherUser === true && !readableInPlace(pyodide, modules));
  if (!copy) return { entry: modules[0]!, packageDir: pyodide, readable: [pyodide, ...modules], release: () => {} };
  let files: Omit<SandboxFiles, 'release'>;
  try {
    const root = realpathSync(packageRoot());
    const copies = modules.map((module) => stage(module, relative(root, module)));
    stageManifest();
    const stagedPackage = stage(pyodide, join('node_modules', basename(pyodide)));
    files = { entry: copies[0]!, packageDir: stagedPackage, readable: [stagedPackage, ...copies] };
    if (options.otherUser === true && !files.readable.every(othersCanRead))
      throw new Error(`concord: ${unreadableReason()}`);
  } catch (error) {
    // Copies no worker can use (unreadable, or cut short) are not kept until the host exits.
    if (stagedUsers.size === 0) removeStagedCopies();
    throw error;
  }
  const user = {};
  stagedUsers.add(user);
  const release = () => {
    if (stagedUsers.delete(user) && stagedUsers.size === 0) removeStagedCopies();
  };
  return { ...files, release };
}

/** The Pyodide package and the worker's modules where they really are (links resolved). */
function workerSources(packageDir: string): { pyodide: string; modules: string[] } {
  return {
    pyodide: realpathSync(packageDir),
    modules: WORKER_MODULES.map((module) => realpathSync(builtModule(module))),
  };
}

const readableInPlace = (pyodide: string, modules: readonly string[]) => [pyodide, ...modules].every(othersCanRead);

/**
 * Why a worker running as another user could not read its files, not even from copies, or undefined when it
 * could: what `sandboxFiles` would find, told before any worker starts and without copying anything.
 */
export function unreadableSandboxFiles(packageDir: string, options: { otherUser?: boolean }): string | undefined {
  if (options.otherUser !== true) return undefined;
  const { pyodide, modules } = workerSources(packageDir);
  if (readableInPlace(pyodide, modules)) return undefined;
  // The copies go into a folder under the temp dir that every user may read: they are reachable when the temp dir is.
  return othersCanTraverse(tmpdir()) ? undefined : unreadableReason();
}

const unreadableReason = () =>
  `the Pyodide worker runs as the unprivileged user nobody and cannot read its files, not even the copies ` +
  `concord makes in the temp dir. Make the temp dir (${tmpdir()}) reachable by every user, or set TMPDIR to one that is.`;
