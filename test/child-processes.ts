import { spawnSync } from 'node:child_process';

/**
 * This process's live child processes as `ps` shows them (`pid stat args`), leaving out zombies and the `ps`
 * that lists them.
 */
export function liveChildProcesses(): string[] {
  const listing = spawnSync('ps', ['-o', 'pid=,stat=,args=', '--ppid', String(process.pid)], {
    encoding: 'utf8',
  }).stdout;
  return listing
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^\d+\s+Z/.test(line) && !/\bps -o pid=/.test(line));
}
