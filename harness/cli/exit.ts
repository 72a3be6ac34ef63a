import { writeSync } from 'node:fs';

/** The exit code a command decided on (by ending or by returning); unset while it is still running. */
let decided: number | undefined;

/** Ends the process with the code the command decided on: the only way, with `finished`, to end with 0. */
export function exitWith(code: number): never {
  decided = code;
  process.exit(code);
}

/** A command that returned instead of exiting: its code is the one it set on `process.exitCode`, else 0. */
export function finished(): void {
  decided = typeof process.exitCode === 'number' ? process.exitCode : 0;
}

/** Node's own end of the process, which `process.exit` calls after the `exit` event; it emits nothing itself. */
interface ReallyExiting {
  reallyExit(code?: number): never;
}

/**
 * Plugins and their tools run in concord's process, and one that calls `process.exit(0)` mid-gate would end a
 * gate that judged half its pairs with the code of a pass: CI would go green. An exit the command did not
 * decide on is said on stderr, and 0 becomes 1. `process.reallyExit` ends the process without the `exit`
 * event, so without that check and without the clean-up of containers and temp folders that listens to it:
 * called straight, it ends through `process.exit` instead.
 */
export function refuseUndecidedExits(command: () => string): void {
  let exiting = false;
  process.on('exit', (code) => {
    exiting = true;
    if (decided !== undefined) return;
    if (code === 0) {
      writeSync(
        2,
        `concord ${command()}: the process was about to exit with 0 before the command finished: something it loaded (a plugin, a tool) called process.exit, or nothing was left to wait on. Exiting with 1: the command reached no verdict.\n`,
      );
      process.exitCode = 1;
    } else {
      writeSync(2, `concord ${command()}: the process ended with ${code} before the command finished.\n`);
    }
  });
  const node = process as unknown as ReallyExiting;
  const reallyExit = node.reallyExit.bind(process);
  node.reallyExit = (code?: number): never => (exiting ? reallyExit(code) : process.exit(code ?? 0));
}
