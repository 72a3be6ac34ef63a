/**
 * Where a runtime may keep bytes between processes, by key: memory snapshots of a booted interpreter, or what
 * it derived from a program's text. A host that has such a place (concord's verdict cache) hands it to its
 * runtimes through its pool; without one a runtime computes everything afresh. What `read` returns is
 * untrusted: a runtime computes afresh from anything that does not check out.
 */
export interface ByteStore {
  /** The bytes stored for `key`, or undefined (none, or none that checks out). */
  read(key: readonly string[]): Promise<Uint8Array | undefined>;
  write(key: readonly string[], bytes: Uint8Array): Promise<void>;
  /** Forgets the entry for `key`: it did not load. */
  drop(key: readonly string[]): Promise<void>;
}

/** What a host offers the runtimes created for it: places to keep bytes between processes, when it has them. */
export interface RuntimeHost {
  /** Memory snapshots of a booted interpreter (Pyodide boots from one). */
  snapshots?: ByteStore | undefined;
  /** Programs as a runtime prepared them to run (the TypeScript worker: types erased), by the program's text. */
  preparedPrograms?: ByteStore | undefined;
  /**
   * Where a runtime says, in one sentence, what it runs in when that is not what was asked (a fallback); the
   * host says each sentence once however many of its runtimes give it. Without one a runtime writes it to stderr.
   */
  notices?: { say(notice: string): void } | undefined;
}
