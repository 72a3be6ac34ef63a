// The watchdog of a concord command that runs a project's plugins, as a process of its own in the command's
// process group: Ctrl-C reaches both. A command whose JavaScript never yields (a plugin's endless loop) cannot run
// its own signal handler; then this process ends it and removes what it leaves: its child processes, its
// containers and its temp folders. `node watchdog-process.js <pid> <command>`; the command writes a beat to its
// stdin every WATCHDOG_BEAT_MS (a line: the time it wrote it), and `stopping` once it handles a signal itself.
import { readdirSync, readFileSync } from 'node:fs';
import { removeOwnedContainers } from '../../runtimes/seam/owned-containers.js';
import { removeOwnedTempDirs } from '../../runtimes/seam/owned-temp-dir.js';
import { WATCHDOG_GRACE_MS, WATCHDOG_READY, WATCHDOG_STOPPING } from './watchdog.js';

const pid = Number(process.argv[2]);
const command = process.argv[3] ?? '';
/** When the command last wrote a beat, by its own account: a beat read after a signal may have been written before. */
let lastBeat = Date.now();
let stopping = false;
let signalled = false;
let unread = '';

process.stdin.on('data', (chunk: Buffer) => {
  unread += chunk.toString('latin1');
  if (unread.includes(WATCHDOG_STOPPING)) stopping = true;
  const lines = unread.split('\n');
  unread = lines.pop()!;
  for (const line of lines) if (/^\d+$/.test(line)) lastBeat = Math.max(lastBeat, Number(line));
});
// The command ended (whatever way): nothing is left to watch.
process.stdin.on('close', () => process.exit(0));

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
for (const [signal, code] of Object.entries(EXIT_CODES)) {
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    const at = Date.now();
    setTimeout(() => judge(signal, code, at), WATCHDOG_GRACE_MS);
  });
}
// From here on Ctrl-C reaches the handlers above: the command may run its plugins. (A command that stopped
// waiting has closed the pipe: that is no reason to end.)
process.stdout.on('error', () => undefined);
process.stdout.write(WATCHDOG_READY);

/**
 * After the grace time: a command that stops by itself is left to it; one that wrote a beat after the signal never
 * got it (its JavaScript runs).
 */
function judge(signal: string, code: number, signalledAt: number): void {
  if (stopping) return;
  if (lastBeat > signalledAt) process.exit(0);
  process.stderr.write(
    `concord ${command}: ${signal} got no answer within ${WATCHDOG_GRACE_MS / 1000} s: the process runs code that never ` +
      'yields (a plugin looping without end?). Ending it and what it started: child processes, containers, temp folders\n',
  );
  const descendants = descendantsOf(pid);
  for (const target of [pid, ...descendants]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  removeOwnedContainers(pid);
  removeOwnedTempDirs(pid);
  process.exit(code);
}

/** Every process below `root` in the process tree (children re-parented later are not found), read from /proc. */
function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      // The parent pid is the 4th field, after the command name in parentheses (which may hold spaces).
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // The process ended while the list was read.
    }
  }
  const found: number[] = [];
  for (let queue = [root]; queue.length > 0; ) {
    const next = queue.flatMap((p) => children.get(p) ?? []);
    found.push(...next);
    queue = next;
  }
  return found;
}
