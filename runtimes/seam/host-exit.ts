import { rmSync } from 'node:fs';

const cleanups = new Set<() => void>();
let installed = false;

function runAll(): void {
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // One failed cleanup must not keep the others from running.
    }
  }
}

/**
 * Runs `cleanup` (synchronous: nothing asynchronous runs any more) when the host process exits — normally,
 * through process.exit, or on a signal the command turned into an exit. Returns a function that forgets it,
 * for a resource released earlier.
 */
export function onHostExit(cleanup: () => void): () => void {
  if (!installed) {
    installed = true;
    process.once('exit', runAll);
  }
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
  };
}

/** Removes the folder `dir` when the host exits, unless it is forgotten first. */
export function removeOnHostExit(dir: string): () => void {
  return onHostExit(() => rmSync(dir, { recursive: true, force: true }));
}
