import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { GuardError } from '../guarded/folder.js';

/** A path below the project root that `concord init` reads or writes, and what it must be when it exists. */
export interface InitPath {
  /** Relative to the root, `/`-separated. */
  path: string;
  kind: 'file' | 'folder';
}

const HINT =
  'concord init never follows a link or opens anything but a regular file or folder; replace it with a real file or folder, or remove it, and run init again';

function what(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFile()) return 'a file';
  if (stats.isFIFO()) return 'a pipe';
  if (stats.isSocket()) return 'a socket';
  return 'a device or special file';
}

/**
 * Refuses (exit 2, naming the path) when a path init would read or write, or a folder on the way to it,
 * is a symbolic link or not of the kind init expects (a pipe where `.gitignore` goes would block a read
 * forever). Missing paths are fine: init makes them. Run before anything is written, so a refusal writes nothing.
 */
export async function checkInitPaths(root: string, paths: readonly InitPath[]): Promise<void> {
  const checked = new Set<string>();
  for (const { path, kind } of paths) {
    const segments = path.split('/');
    for (const [i, segment] of segments.entries()) {
      const rel = [...segments.slice(0, i), segment].join('/');
      if (checked.has(rel)) continue;
      checked.add(rel);
      const full = join(root, rel);
      const stats = await lstat(full).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (stats === undefined) break;
      const wanted = i < segments.length - 1 ? 'folder' : kind;
      const fits = !stats.isSymbolicLink() && (wanted === 'folder' ? stats.isDirectory() : stats.isFile());
      if (!fits)
        throw new GuardError(
          full,
          `is ${what(stats)}, where init ${wanted === 'folder' ? 'keeps a folder' : 'reads or writes a regular file'}`,
          HINT,
        );
    }
  }
}
