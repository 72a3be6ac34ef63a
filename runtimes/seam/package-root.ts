import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The concord package root, found from this file whether it runs from source (vitest) or from dist/. */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'concord') {
      cached = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('concord: package.json of the concord package not found above ' + import.meta.url);
    dir = parent;
  }
}

/**
 * Absolute path of a compiled module, named by its source path (`runtimes/worker/guest.ts`).
 * Worker entries and cordis plugins must be real JavaScript files, so they always come from dist/.
 */
export function builtModule(sourcePath: string): string {
  return join(packageRoot(), 'dist', sourcePath.replace(/\.ts$/, '.js'));
}

/** Absolute path of a file shipped as-is in the source tree (guest .py files, Dockerfile). */
export function sourceAsset(relativePath: string): string {
  return join(packageRoot(), relativePath);
}
