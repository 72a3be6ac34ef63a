import { type ChildProcess, spawn } from 'node:child_process';
import { builtModule } from '../../runtimes/seam/package-root.js';

/** How often a command tells its watchdog it is alive. */
const WATCHDOG_BEAT_MS = 250;
/** How long after a signal the watchdog waits for the command to answer it before ending it. */
export const WATCHDOG_GRACE_MS = 3000;
/** What a command writes to its watchdog once it handles a signal itself. */
export const WATCHDOG_STOPPING = 'stopping';

let watchdog: ChildProcess | undefined;

/**
 * Starts the watchdog of a command that runs a project's plugins (harness/cli/watchdog-process.ts): when Ctrl-C
 * finds the command's JavaScript running without end, the watchdog ends it and removes what it started. The
 * watchdog never keeps the command alive, and ends with it.
 */
export function startWatchdog(command: string): void {
  if (watchdog !== undefined || process.platform !== 'linux') return;
  const child = spawn(
    process.execPath,
    [builtModule('harness/cli/watchdog-process.ts'), String(process.pid), command],
    {
      stdio: ['pipe', 'ignore', 'inherit'],
    },
  );
  child.on('error', () => undefined);
  child.stdin?.on('error', () => undefined);
  child.unref();
  (child.stdin as unknown as { unref?(): void } | null)?.unref?.();
  const beat = setInterval(() => child.stdin?.write('.'), WATCHDOG_BEAT_MS);
  beat.unref();
  watchdog = child;
}

/** Tells the watchdog that this command handles a signal itself: it stops its work and exits. */
export function tellWatchdogStopping(): void {
  watchdog?.stdin?.write(WATCHDOG_STOPPING);
}
