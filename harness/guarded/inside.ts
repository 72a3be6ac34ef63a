import { isAbsolute, relative, sep } from 'node:path';

/** Whether `path` is `folder` itself or lies below it (both absolute; compared as written, no link resolved). */
export function inside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel));
}
