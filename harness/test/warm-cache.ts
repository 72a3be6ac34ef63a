import { copyFile, link, mkdir, mkdtemp, readdir, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { CacheKind } from '../cache/verdict-cache.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder of the test run (made by the global setup) that collects verdict cache entries for every file. */
    warmCacheDir: string;
  }
}

/** The project's verdict cache folder, as the gate names it. */
const cacheOf = (root: string) => join(root, '.concord', 'cache');

/** Entry names the cache writes (`<sha256>.json|.bin`); a half-copied file never has one. */
const ENTRY = /^[0-9a-f]{64}\.(json|bin)$/;

/**
 * Puts into `to` every entry below `from` that `to` lacks, but those of the kinds in `leaveOut` (the first
 * folder below the cache): a hard link to it, so a project's cache and the run's share their bytes (a gate
 * never changes an entry in place: it renames a new file over it, which leaves the other folder's link as it
 * was). Where no link can be made (another file system), a copy under a temporary name, renamed (atomic).
 */
async function addEntries(from: string, to: string, leaveOut: readonly CacheKind[] = []): Promise<void> {
  let entries;
  try {
    entries = await readdir(from, { recursive: true, withFileTypes: true });
  } catch {
    return;
  }
  const have = new Set<string>();
  try {
    for (const e of await readdir(to, { recursive: true, withFileTypes: true }))
      if (e.isFile()) have.add(join(e.parentPath, e.name).slice(to.length));
  } catch {
    // nothing there yet
  }
  for (const entry of entries) {
    if (!entry.isFile() || !ENTRY.test(entry.name)) continue;
    const relative = join(entry.parentPath, entry.name).slice(from.length);
    if (have.has(relative) || leaveOut.some((kind) => relative.startsWith(`/${kind}/`))) continue;
    const source = join(entry.parentPath, entry.name);
    const target = join(to, relative);
    await mkdir(join(target, '..'), { recursive: true });
    try {
      await link(source, target);
      continue;
    } catch (error) {
      // Written meanwhile by a gate of the project, or by another file's keepCache: the same verdict.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
    }
    const partial = `${target}.${process.pid}.partial`;
    await copyFile(source, partial);
    await rename(partial, target);
  }
}

/**
 * Starts `root`'s gates warm: puts into its `.concord/cache` the verdicts (stub compiles and imports on each
 * interpreter, pyright checks, token counts) and the Pyodide memory snapshot that earlier gates of this test
 * run computed. A folder of its own, its entries linked: concurrent gates never share a writable cache
 * folder. For tests that are not about a cold start or about the cache itself. `leaveOut` names kinds of
 * verdicts the test must see computed: a cached token count, say, answers without the tokenizer a test has
 * left uninstalled.
 */
export async function seedCache(root: string, leaveOut: readonly CacheKind[] = []): Promise<void> {
  await addEntries(inject('warmCacheDir'), cacheOf(root), leaveOut);
}

/** Adds what `root`'s gates computed to the run's warm cache, for the gates of later tests to start from. */
export async function keepCache(root: string): Promise<void> {
  await addEntries(cacheOf(root), inject('warmCacheDir'));
}

/**
 * A fresh folder whose `.concord/cache` holds a copy of the run's warm cache, for in-process gates over a
 * project the test must not write into (this repository): `runGate({ cache: true, cacheRoot })`.
 */
export async function warmCacheRoot(prefix = 'concord-cache-root-'): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  await seedCache(root);
  return root;
}
