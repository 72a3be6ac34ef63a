import { exitWith } from './exit.js';
import { tellWatchdogStopping } from './watchdog.js';

/** Exit codes of a command ended by a signal, as a shell reports them (128 + the signal's number). */
const SIGNAL_EXITS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * Turns SIGINT, SIGTERM and SIGHUP into a process exit with the shell's code. Node's default for them ends
 * the process without its exit hooks; through process.exit every hook runs: containers are removed, child
 * process groups killed, temp folders removed.
 */
export function exitOnSignals(command: () => string): void {
  for (const [signal, code] of Object.entries(SIGNAL_EXITS)) {
    process.once(signal, () => {
      tellWatchdogStopping();
      console.error(`concord ${command()}: ${signal}: stopping containers and child processes, removing temp folders`);
      exitWith(code);
    });
  }
}
