import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ByteStore } from '../seam/byte-store.js';
import { SNAPSHOT_PRELOAD } from './protocol.js';
import { PYODIDE_RELEASES, type PyodidePythonVersion } from './versions.js';

export type { ByteStore };

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
    key = [
      `pyodide ${PYODIDE_RELEASES[version].pyodide}`,
      `files ${hash.digest('hex')}`,
      `preload ${SNAPSHOT_PRELOAD.join(',')}`,
    ];
    keys.set(packageDir, key);
  }
  return key;
}

/**
 * The boot that holds each key of a store: from before it reads the key until it has loaded the snapshot or
 * stored the one it made (or failed to). A cold gate boots the Pyodide checker and the runtime's worker of one
 * release together; without this both would make the same snapshot side by side (about 1.6 CPU-s more than a
 * boot that loads one). Keyed by the store object, so one command's cache never waits on another's.
 */
const holders = new WeakMap<ByteStore, Map<string, Promise<void>>>();

/**
 * Waits until no other boot holds `key` in `store`, then holds it until `released` settles. Between the last
 * check and the hold nothing is awaited, so of two boots that start together exactly one makes the snapshot
 * and the other loads it.
 */
export async function holdSnapshotKey(
  store: ByteStore,
  key: readonly string[],
  released: Promise<void>,
): Promise<void> {
  let held = holders.get(store);
  if (held === undefined) holders.set(store, (held = new Map()));
  const name = key.join('\n');
  for (let other = held.get(name); other !== undefined; other = held.get(name)) await other;
  held.set(name, released);
  void released.finally(() => {
    if (held.get(name) === released) held.delete(name);
  });
}
