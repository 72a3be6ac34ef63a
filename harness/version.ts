import { createHash } from 'node:crypto';
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../runtimes/seam/package-root.js';

/** The version of the concord package that runs: `concord --version` and the results file. */
export function concordVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** The folders of concord's own code, under the folder it runs from (the package, or its dist/). */
const CODE_FOLDERS = ['contract', 'codemode', 'runtimes', 'harness'];
/** The files that are code: what runs, and the Python a guest or checker runs; no test, map or declaration. */
const CODE_FILE = /\.(?:[cm]?[jt]s|py)$/;
const NOT_CODE = /\.(?:test|d)\.[cm]?[jt]s$|\.map$/;

let codeHash: string | undefined;

/**
 * A hash of concord's own code as it runs here: every file of its code folders (the built JavaScript, or the sources
 * when it runs from them) and the Python its runtimes ship. Two builds that share a version string but not their code
 * hash apart: what a verdict was judged by is its code, not the version it says.
 */
export function concordCodeHash(): string {
  codeHash ??= hashOfCode([dirname(dirname(fileURLToPath(import.meta.url))), packageRoot()]);
  return codeHash;
}

/** The hash of the code folders under each of `roots` (each once): their files' paths and bytes, in order. */
export function hashOfCode(roots: readonly string[]): string {
  const hash = createHash('sha256');
  for (const root of new Set(roots))
    for (const folder of CODE_FOLDERS)
      for (const file of codeFiles(join(root, folder)).sort())
        hash
          .update(`${relative(root, file)}\0`)
          .update(readFileSync(file))
          .update('\0');
  return hash.digest('hex');
}

function codeFiles(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'test' ? [] : codeFiles(path);
    return entry.isFile() && CODE_FILE.test(entry.name) && !NOT_CODE.test(entry.name) ? [path] : [];
  });
}
