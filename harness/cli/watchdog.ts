import { type ChildProcess, spawn } from 'node:child_process';
import { builtModule } from '../../runtimes/seam/package-root.js';

/**
 * How often a command tells its watchdog it is alive: a line with the time it wrote it (`Date.now()`), so a beat
 * the watchdog reads late (a busy machine) still says when the command was last alive.
 */
const WATCHDOG_BEAT_MS = 250;
/** How long after a signal the watchdog waits for the command to answer it before ending it. */
export const WATCHDOG_GRACE_MS = 3000;
/** What a command writes to its watchdog once it handles a signal itself. */
export const WATCHDOG_STOPPING = 'stopping';
/** What the watchdog writes once it handles signals: before that, Ctrl-C would end it and leave the command. */
export const WATCHDOG_READY = 'ready';
/** How long a command waits for its watchdog to be ready before going on without the certainty. */
const WATCHDOG_READY_MS = 10_000;

let watchdog: ChildProcess | undefined;

/**
 * Starts the watchdog of a command that runs a project's plugins (harness/cli/watchdog-process.ts): when Ctrl-C
 * finds the command's JavaScript running without end, the watchdog ends it and removes what it started. The
 * watchdog never keeps the command alive, and ends with it. Resolves once the watchdog handles signals (or could
 * not start, or took more than WATCHDOG_READY_MS): a plugin that spins before then, on a busy machine, would leave
 * a Ctrl-C that ends the watchdog alone.
 */
export function startWatchdog(command: string): Promise<void> {
  if (watchdog !== undefined || process.platform !== 'linux') return Promise.resolve();
  const child = spawn(
    process.execPath,
    [builtModule('harness/cli/watchdog-process.ts'), String(process.pid), command],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  child.on('error', () => undefined);
  child.stdin?.on('error', () => undefined);
  child.unref();
  (child.stdin as unknown as { unref?(): void } | null)?.unref?.();
  const beat = setInterval(() => child.stdin?.write(`${Date.now()}\n`), WATCHDOG_BEAT_MS);
  beat.unref();
  watchdog = child;
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(patience);
      // The watchdog says nothing more on stdout: closing it leaves nothing that keeps the command alive.
      child.stdout?.destroy();
      resolve();
    };
    const patience = setTimeout(done, WATCHDOG_READY_MS);
    patience.unref();
    let said = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      said += chunk.toString('latin1');
      if (said.includes(WATCHDOG_READY)) done();
    });
    child.stdout?.on('error', () => undefined);
    child.once('exit', done);
    child.once('error', done);
  });
}

/** Tells the watchdog that this command handles a signal itself: it stops its work and exits. */
export function tellWatchdogStopping(): void {
  watchdog?.stdin?.write(WATCHDOG_STOPPING);
}
