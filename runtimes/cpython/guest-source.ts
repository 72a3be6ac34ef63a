import { readFileSync } from 'node:fs';
import { sourceAsset } from '../seam/package-root.js';

/** Where the guest module lives in the source tree (the Pyodide runtime imports the same file). */
export const GUEST_MODULE = 'runtimes/cpython/guest/concord_guest.py';

/**
 * The command that starts a guest server with `python` as the interpreter. The module's source travels in
 * the command itself (`-c`), read fresh when a runtime starts: no file has to be readable by the
 * unprivileged user, and a container can never run a guest older than this checkout.
 */
export function guestServerCommand(python: string): string[] {
  return [python, '-I', '-S', '-c', readFileSync(sourceAsset(GUEST_MODULE), 'utf8')];
}
