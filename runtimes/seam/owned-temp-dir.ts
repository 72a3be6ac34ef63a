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
 * This user's folders under the temp dir named `<prefix>-<pid>-…` whose process is gone: what a process
 * killed outright left (it never ran its exit hook), with that process's pid.
 */
export function leftByDeadOwners(prefix: string): Array<{ path: string; pid: number }> {
  const pattern = new RegExp(`^${prefix.replace(/[^A-Za-z0-9]/g, '\\$&')}-(\\d+)-`);
  const left: Array<{ path: string; pid: number }> = [];
  for (const name of readdirSync(tmpdir())) {
    const owner = pattern.exec(name);
    if (owner === null || alive(Number(owner[1]))) continue;
    const path = join(tmpdir(), name);
    try {
      if (statSync(path).uid === process.getuid?.()) left.push({ path, pid: Number(owner[1]) });
    } catch {
      // Another process swept it first.
    }
  }
  return left;
}

/**
 * A fresh folder under the temp dir, named `<prefix>-<pid>-XXXXXX` and removed when this process exits.
 * Each call first removes this user's folders of the same prefix whose process is gone.
 */
export function ownedTempDir(prefix: string): string {
  for (const { path } of leftByDeadOwners(prefix)) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Another process is sweeping it too.
    }
  }
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-${process.pid}-`));
  removeOnHostExit(dir);
  return dir;
}
