/**
 * Where a runtime may keep memory snapshots of a booted interpreter between processes, by key. A host that
 * has such a place (concord's verdict cache) hands it to its runtimes through its pool; without one every
 * interpreter boots afresh. What `read` returns is untrusted: a runtime boots afresh from anything that does
 * not load.
 */
export interface SnapshotStore {
  /** The bytes stored for `key`, or undefined (none, or none that checks out). */
  read(key: readonly string[]): Promise<Uint8Array | undefined>;
  write(key: readonly string[], bytes: Uint8Array): Promise<void>;
  /** Forgets the entry for `key`: it did not load. */
  drop(key: readonly string[]): Promise<void>;
}
