import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SNAPSHOT_PRELOAD } from './protocol.js';
import { PYODIDE_RELEASES, type PyodidePythonVersion } from './versions.js';

export type { ByteStore } from '../seam/byte-store.js';

/** Whether the release for `version` can make and load memory snapshots (`_makeSnapshot` / `_loadSnapshot`). */
export function supportsSnapshots(version: PyodidePythonVersion): boolean {
  return PYODIDE_RELEASES[version].memorySnapshot;
}

const keys = new Map<string, readonly string[]>();

/**
 * What a snapshot depends on: the release, the sha256 of its WebAssembly module and standard library as
 * installed, and the modules loaded before it was taken. Computed once per package folder.
 */
export function snapshotKey(version: PyodidePythonVersion, packageDir: string): readonly string[] {
  let key = keys.get(packageDir);
  if (key === undefined) {
    const hash = createHash('sha256');
    for (const file of ['pyodide.asm.wasm', 'python_stdlib.zip']) hash.update(readFileSync(join(packageDir, file)));
    key = [`pyodide ${PYODIDE_RELEASES[version].pyodide}`, `files ${hash.digest('hex')}`, `preload ${SNAPSHOT_PRELOAD.join(',')}`];
    keys.set(packageDir, key);
  }
  return key;
}
