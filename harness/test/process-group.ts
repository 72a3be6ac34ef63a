import type { ChildProcess } from 'node:child_process';

/** Ends whatever is left of the process group a test started `child` in (`detached`), if anything is. */
export function killProcessGroup(child: ChildProcess | undefined): void {
  if (child?.pid === undefined) return;
  try {
    // A negative pid names the group.
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}
