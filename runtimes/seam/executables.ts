import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Every executable `name` in the folders of `searchPath` (the host's PATH by default), in their order; a
 * name with a slash is its own single candidate.
 */
export function executablesOnPath(name: string, searchPath = process.env.PATH ?? ''): string[] {
  if (name.includes('/')) return [name];
  const found: string[] = [];
  for (const dir of searchPath.split(delimiter)) {
    if (dir === '') continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      found.push(path);
    } catch {
      // Not in this folder.
    }
  }
  return found;
}

/** The first executable `name` in the folders of `searchPath` (the host's PATH by default). */
export const onPath = (name: string, searchPath?: string): string | undefined => executablesOnPath(name, searchPath)[0];
