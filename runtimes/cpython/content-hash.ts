import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { sourceAsset } from '../seam/package-root.js';

/** Paths, relative to `runtimes/cpython/`, of everything a runtime image copies or is built from. */
export function runtimeImageInputs(cpythonDir: string = sourceAsset('runtimes/cpython')): string[] {
  const inputs = ['Dockerfile'];
  const pending = ['guest'];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let entries;
    try {
      entries = readdirSync(join(cpythonDir, dir), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const entry of entries) {
      // Bytecode caches differ per interpreter and are not part of what the image is built from.
      if (entry.name === '__pycache__' || entry.name.endsWith('.pyc')) continue;
      const relative = posix.join(dir, entry.name);
      if (entry.isDirectory()) pending.push(relative);
      else if (entry.isFile()) inputs.push(relative);
    }
  }
  return inputs.sort();
}

/**
 * A hash of the Dockerfile and the guest files. Runtime images carry it as a label, so a changed guest is
 * noticed and the image rebuilt instead of silently running stale code.
 */
export function runtimeImageHash(cpythonDir: string = sourceAsset('runtimes/cpython')): string {
  const hash = createHash('sha256');
  for (const relative of runtimeImageInputs(cpythonDir)) {
    const content = readFileSync(join(cpythonDir, relative));
    // Length-prefixed, so moving bytes between a name and a content cannot give the same hash.
    hash.update(`${relative.length}:${relative}${content.length}:`);
    hash.update(content);
  }
  return hash.digest('hex');
}
