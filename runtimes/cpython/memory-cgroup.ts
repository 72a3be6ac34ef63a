import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onHostExit } from '../seam/host-exit.js';

/**
 * One memory budget for a run's whole process tree: a memory cgroup per run. The host makes one folder
 * per runtime under its own memory cgroup; the guest server (root) makes a child of it for each run, sets
 * the run's limit there, and the run's process joins it before the program starts. RLIMIT_AS alone binds
 * each process, so eight forked children could hold eight budgets.
 */

/** Where this host keeps memory cgroups, and which version it speaks. */
export interface MemoryCgroupRoot {
  /** The memory cgroup this process is in: runtimes' folders are made inside it. */
  parent: string;
  version: 1 | 2;
}

/** Version 1 mounts each controller on its own; version 2 has one unified tree. */
const V1_MEMORY = '/sys/fs/cgroup/memory';
const V2_ROOT = '/sys/fs/cgroup';

/** This process's path in the hierarchy that has the memory controller, from /proc/self/cgroup. */
function ownCgroup(version: 1 | 2): string | undefined {
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const [id, controllers, path] = line.split(':');
    if (path === undefined) continue;
    if (version === 1 && controllers!.split(',').includes('memory')) return path;
    if (version === 2 && id === '0' && controllers === '') return path;
  }
  return undefined;
}

function locate(): MemoryCgroupRoot | string {
  if (existsSync(join(V1_MEMORY, 'memory.limit_in_bytes')) || existsSync(join(V1_MEMORY, 'cgroup.procs'))) {
    const own = ownCgroup(1);
    if (own === undefined) return 'this process is in no memory cgroup (version 1)';
    return { parent: join(V1_MEMORY, own), version: 1 };
  }
  if (existsSync(join(V2_ROOT, 'cgroup.controllers'))) {
    const own = ownCgroup(2);
    if (own === undefined) return 'this process is in no cgroup (version 2)';
    const parent = join(V2_ROOT, own);
    const enabled = readFileSync(join(parent, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
    if (!enabled.includes('memory')) {
      try {
        // Refused (EBUSY) while this cgroup holds processes, which is where a process usually is.
        writeFileSync(join(parent, 'cgroup.subtree_control'), '+memory');
      } catch (error) {
        return `the memory controller cannot be delegated below ${parent} (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
      }
    }
    return { parent, version: 2 };
  }
  return 'no memory cgroup controller is mounted under /sys/fs/cgroup';
}

let probe: MemoryCgroupRoot | string | undefined;

/** Where runtimes may make memory cgroups here, or why they cannot (tried once: a folder made and removed). */
export function memoryCgroupSupport(): MemoryCgroupRoot | string {
  if (probe !== undefined) return probe;
  if (process.getuid?.() !== 0) return (probe = 'concord does not run as root');
  try {
    const found = locate();
    if (typeof found === 'string') return (probe = found);
    const trial = makeCgroupFolder(found);
    removeCgroupFolder(trial);
    sweepAbandoned(found);
    probe = found;
  } catch (error) {
    probe = `no memory cgroup can be made here (${(error as Error).message})`;
  }
  return probe;
}

const made = new Set<string>();
// A runtime that is never disposed still leaves no cgroup behind when the host exits normally.
onHostExit(() => {
  for (const folder of made) removeCgroupFolder(folder);
});

/** A runtime's folder: `concord-<pid of the host that made it>-<8 hex digits>`. */
const RUNTIME_FOLDER = /^concord-(\d+)-[0-9a-f]{8}$/;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Removes the runtime folders that hosts killed before their exit hook ran (kill -9) left under `root`: those whose
 * host process is gone. A folder whose pid a live process holds again is left for later.
 */
export function sweepAbandoned(root: MemoryCgroupRoot): string[] {
  const swept: string[] = [];
  for (const entry of readdirSync(root.parent, { withFileTypes: true })) {
    const pid = RUNTIME_FOLDER.exec(entry.name)?.[1];
    if (!entry.isDirectory() || pid === undefined || alive(Number(pid))) continue;
    const folder = join(root.parent, entry.name);
    removeCgroupFolder(folder);
    if (!existsSync(folder)) swept.push(folder);
  }
  return swept;
}

/** A fresh folder for one runtime's runs, its limit file proving the controller is there. */
export function makeCgroupFolder(root: MemoryCgroupRoot): string {
  const folder = join(root.parent, `concord-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(folder);
  made.add(folder);
  if (root.version === 2) writeFileSync(join(folder, 'cgroup.subtree_control'), '+memory');
  const limitFile = join(folder, root.version === 1 ? 'memory.limit_in_bytes' : 'memory.max');
  if (!statSync(limitFile).isFile()) throw new Error(`${limitFile} is missing`);
  return folder;
}

/**
 * Removes a runtime's folder and the run folders its server left (a server killed mid-run leaves one).
 * Their processes are gone or dying: a busy folder is tried again a few times, then left.
 */
export function removeCgroupFolder(folder: string): void {
  let children: string[] = [];
  try {
    children = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(folder, entry.name));
  } catch {
    made.delete(folder);
    return;
  }
  for (const path of [...children, folder]) {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        rmdirSync(path);
        break;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code !== 'EBUSY') break;
        // A SIGKILLed process leaves its cgroup a moment after it is signalled.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      }
    }
  }
  made.delete(folder);
}
