import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { ByteStore } from '../seam/byte-store.js';

/**
 * Pyodide memory snapshots shared by every test file of the run, in a folder of the run's warm cache (see
 * harness/test/warm-cache.ts): the first boot of a release makes one, every later boot loads it, as a gate's
 * runtimes do from the verdict cache. A boot that loads one costs about 2.6 CPU-s here, a fresh one 4.3. For
 * tests that are not about how an interpreter boots (snapshot.test.ts is). The file names are not the verdict
 * cache's, so gates seeded from the warm cache never see them. Writes land under a temporary name, renamed.
 */
export function runSnapshots(): ByteStore {
  const dir = join(inject('warmCacheDir'), 'pyodide-test-snapshots');
  const file = (key: readonly string[]) => join(dir, `${createHash('sha256').update(key.join('\n')).digest('hex')}.snapshot`);
  return {
    read: (key) => readFile(file(key)).catch(() => undefined),
    write: async (key, bytes) => {
      await mkdir(dir, { recursive: true });
      const partial = `${file(key)}.${process.pid}.partial`;
      await writeFile(partial, bytes);
      await rename(partial, file(key));
    },
    drop: (key) => rm(file(key), { force: true }),
  };
}

/**
 * A store in memory that logs what the workers did with it (`read`, `write`, `drop`), for tests of how they
 * boot. A write is logged when it starts and lands `writeMs` later, as one to a disk does.
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
