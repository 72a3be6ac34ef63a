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
 * The kinds of folder concord's commands make, each removed when its process exits. A process killed outright
 * leaves them; the first folder any later process makes sweeps those of every kind, so a command that needs no
 * type checker still removes a killed one's `concord-pyright` workspace. Folders of other prefixes (the
 * provisioner's Debian trees, which must be unmounted first) are never touched by that sweep.
 */
const COMMAND_FOLDER_KINDS = [
  'concord-assembly',
  'concord-channel',
  'concord-runs',
  'concord-probe',
  'concord-pyright',
  'concord-pyodide',
] as const;

let sweptEveryKind = false;

/**
 * This user's folders under the temp dir named `<prefix>-<pid>-…`, for any of `prefixes`, whose process is
 * gone: what a process killed outright left (it never ran its exit hook), with that process's pid.
 */
export function leftByDeadOwners(prefixes: readonly string[]): Array<{ path: string; pid: number }> {
  const pattern = new RegExp(
    `^(?:${prefixes.map((prefix) => prefix.replace(/[^A-Za-z0-9]/g, '\\$&')).join('|')})-(\\d+)-`,
  );
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

/** Removes the folders of every kind a command makes that process `pid` made (it was ended without its exit hook). */
export function removeOwnedTempDirs(pid: number): void {
  const pattern = new RegExp(`^(?:${COMMAND_FOLDER_KINDS.join('|')})-${pid}-`);
  for (const name of readdirSync(tmpdir())) {
    if (pattern.test(name)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

/**
 * A fresh folder under the temp dir, named `<prefix>-<pid>-XXXXXX` and removed when this process exits.
 * Each call first removes this user's folders of the same prefix whose process is gone; a process's first
 * call, those of every kind a command makes.
 */
export function ownedTempDir(prefix: string): string {
  const kinds = sweptEveryKind ? [prefix] : [prefix, ...COMMAND_FOLDER_KINDS];
  sweptEveryKind = true;
  for (const { path } of leftByDeadOwners(kinds)) {
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
