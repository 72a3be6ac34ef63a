import { spawnSync } from 'node:child_process';
import { onHostExit } from './host-exit.js';

/** The label naming the process that started a container. */
export const HOST_PID_LABEL = 'org.concord.host-pid';

let sweepInstalled = false;

/**
 * The labels of a container this process is about to start: `labels` and its own pid. From the first call
 * on, the process's exit (normal, or a signal the command turned into one) removes every container that
 * carries its pid, whether disposed, forgotten or still being started: a container caught between its
 * creation and the end of `start()` is in no list of the host's yet, but the engine knows its label.
 */
export function ownedContainerLabels(labels: Readonly<Record<string, string>>): Record<string, string> {
  if (!sweepInstalled) {
    sweepInstalled = true;
    onHostExit(removeOwnedContainers);
  }
  return { ...labels, [HOST_PID_LABEL]: String(process.pid) };
}

/** Synchronous (the process is exiting): the engine's CLI lists this process's containers and removes them. */
function removeOwnedContainers(): void {
  const listed = spawnSync('docker', ['ps', '-aq', '--filter', `label=${HOST_PID_LABEL}=${process.pid}`], { encoding: 'utf8', timeout: 15_000 });
  const ids = (listed.stdout ?? '').split('\n').filter(Boolean);
  if (ids.length > 0) spawnSync('docker', ['rm', '-f', ...ids], { stdio: 'ignore', timeout: 30_000 });
}
