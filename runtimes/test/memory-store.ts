import type { ByteStore } from '../seam/byte-store.js';

/**
 * A store in memory that logs what a runtime did with it (`read`, `write`, `drop`), for tests of how a runtime
 * uses one (a Pyodide boot, a prepared program). A write is logged when it starts and lands `writeMs` later,
 * as one to a disk does.
 */
export function memoryStore({ writeMs = 0 } = {}): ByteStore & { entries: Map<string, Uint8Array>; log: string[] } {
  const entries = new Map<string, Uint8Array>();
  const log: string[] = [];
  return {
    entries,
    log,
    read: async (key) => (log.push('read'), entries.get(key.join('\n'))),
    write: async (key, bytes) => {
      log.push('write');
      if (writeMs > 0) await new Promise((resolve) => setTimeout(resolve, writeMs));
      entries.set(key.join('\n'), bytes);
    },
    drop: async (key) => void (log.push('drop'), entries.delete(key.join('\n'))),
  };
}
