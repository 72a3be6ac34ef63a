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
  const file = (key: readonly string[]) =>
    join(dir, `${createHash('sha256').update(key.join('\n')).digest('hex')}.snapshot`);
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
