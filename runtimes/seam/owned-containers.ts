import { spawnSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import type Dockerode from 'dockerode';
import { onHostExit } from './host-exit.js';
import { alive } from './owned-temp-dir.js';

/** The label naming the process that started a container. */
export const HOST_PID_LABEL = 'org.concord.host-pid';
/** The label naming where that pid means that process: the kernel's boot and the process's pid namespace. */
export const HOST_LABEL = 'org.concord.host';

let sweepInstalled = false;

/**
 * This boot of this kernel and this process's pid namespace, or undefined where /proc does not say (then no
 * container's pid can be checked here). An engine may serve other machines or containers, whose pids mean
 * other processes; only a container labelled with this identity is one whose owner `kill(pid, 0)` can find.
 */
export function hostIdentity(): string | undefined {
  try {
    return `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}/${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return undefined;
  }
}

/**
 * The labels of a container this process is about to start: `labels`, its own pid and where that pid is
 * meant. From the first call on, the process's exit (normal, or a signal the command turned into one)
 * removes every container that carries its pid, whether disposed, forgotten or still being started: a
 * container caught between its creation and the end of `start()` is in no list of the host's yet, but the
 * engine knows its label.
 */
export function ownedContainerLabels(labels: Readonly<Record<string, string>>): Record<string, string> {
  if (!sweepInstalled) {
    sweepInstalled = true;
    onHostExit(() => removeOwnedContainers());
  }
  const host = hostIdentity();
  return { ...labels, [HOST_PID_LABEL]: String(process.pid), ...(host === undefined ? {} : { [HOST_LABEL]: host }) };
}

/**
 * Synchronous (the process is exiting): the engine's CLI lists the containers of process `pid` (this one by
 * default; a watchdog names the command it ended) and removes them; those of this host only, where the host is
 * known, as a shared engine may hold another's of the same pid.
 */
export function removeOwnedContainers(pid: number = process.pid): void {
  const host = hostIdentity();
  const filters = [
    `label=${HOST_PID_LABEL}=${pid}`,
    ...(host === undefined ? [] : [`label=${HOST_LABEL}=${host}`]),
  ].flatMap((filter) => ['--filter', filter]);
  const listed = spawnSync('docker', ['ps', '-aq', ...filters], { encoding: 'utf8', timeout: 15_000 });
  const ids = (listed.stdout ?? '').split('\n').filter(Boolean);
  if (ids.length > 0) spawnSync('docker', ['rm', '-f', ...ids], { stdio: 'ignore', timeout: 30_000 });
}

/**
 * Removes the containers that concord processes of this host created and never started, and that are gone.
 * A container ends by itself once its host dies only if it runs: a process killed outright (`kill -9`, the
 * OOM killer) between a container's creation and its start leaves it created, and nothing else would ever
 * remove it. A container of a live process (perhaps starting it right now), of another host, or of an older
 * concord without the host label is left alone. Returns the ids removed.
 */
export async function removeAbandonedContainers(docker: Dockerode): Promise<string[]> {
  const host = hostIdentity();
  if (host === undefined) return [];
  const created = await docker.listContainers({
    all: true,
    filters: { label: [`${HOST_LABEL}=${host}`], status: ['created'] },
  });
  const abandoned = created.filter((container) => {
    const pid = Number(container.Labels[HOST_PID_LABEL]);
    return Number.isInteger(pid) && pid > 0 && !alive(pid);
  });
  const removed: string[] = [];
  for (const { Id } of abandoned) {
    // Another process sweeping at the same moment may have removed it first.
    if (
      await docker
        .getContainer(Id)
        .remove({ force: true })
        .then(
          () => true,
          () => false,
        )
    )
      removed.push(Id);
  }
  return removed;
}
