import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeOnHostExit } from './host-exit.js';

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A fresh folder under the temp dir, named `<prefix>-<pid>-XXXXXX` and removed when this process exits.
 * A process killed by a signal never runs its exit hook, so each call first removes this user's folders
 * of the same prefix whose process is gone.
 */
export function ownedTempDir(prefix: string): string {
  const pattern = new RegExp(`^${prefix.replace(/[^A-Za-z0-9]/g, '\\$&')}-(\\d+)-`);
  for (const name of readdirSync(tmpdir())) {
    const owner = pattern.exec(name);
    if (owner === null || alive(Number(owner[1]))) continue;
    const path = join(tmpdir(), name);
    try {
      if (statSync(path).uid === process.getuid?.()) rmSync(path, { recursive: true, force: true });
    } catch {
      // Another process swept it first.
    }
  }
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-${process.pid}-`));
  removeOnHostExit(dir);
  return dir;
}
