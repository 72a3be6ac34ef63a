import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { GuardedFolder } from '../guarded/folder.js';
import { UserError } from '../user-error.js';
import { concordCodeHash, concordVersion } from '../version.js';

/**
 * What a cached verdict judged: a compile or module run on one interpreter, a pyright or tsc check, an SDK's token
 * count, or the names a TypeScript SDK declares.
 */
export type CacheKind = 'compile' | 'import' | 'pyright' | 'tsc' | 'tokens' | 'sdk-names';
/**
 * What a binary entry holds: a memory snapshot of a booted Pyodide interpreter, or a TypeScript program with its types
 * erased.
 */
export type BlobKind = 'pyodide-snapshot' | 'typescript-program';
/** What a note holds: what a local interpreter said about itself, by the stat of its files (no verdict). */
export type NoteKind = 'interpreter';

/** Bumped when the entry layout changes: older entries then miss. */
const FORMAT = 1;
/** An entry larger than this is no entry concord wrote: it is ignored, never parsed. */
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;
/** What the cache may hold on disk unless `CONCORD_CACHE_MAX_MB` says otherwise. */
export const DEFAULT_CACHE_MAX_MB = 256;
/** A binary entry larger than this is no entry concord wrote (a snapshot is tens of megabytes). */
const MAX_BLOB_BYTES = 512 * 1024 * 1024;
/** The file names concord gives entries; anything else under the cache folder is never counted nor removed. */
const ENTRY_NAME = /^[0-9a-f]{64}\.(json|bin)$/;

/** What one run did with the cache. `rejected`: entries found unreadable or not matching their key (ignored). */
export interface CacheStats {
  hits: number;
  misses: number;
  stored: number;
  rejected: number;
  /** Entries that could not be written (a link or a folder in the way, a full disk): the run goes on without them. */
  unwritable: number;
  /** Entries removed at the end of the run to keep the cache within its size cap (the least recently used first). */
  pruned: number;
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * What judged a verdict, as its key says it: concord's version, a hash of its own code (an edited build of one
 * version judges differently) and the engine it ran on (a verdict made under another Node never answers).
 */
export function judgedBy(): string {
  return `concord ${concordVersion()} code ${concordCodeHash()} node ${process.version}`;
}

/**
 * Verdicts by content, on disk under `<root>/.concord/cache/`: `<kind>/<2 hex>/<sha256>.json`, where the hash
 * covers what judged the verdict (`judgedBy`: concord's version and code, the engine), the kind and the key's parts (the interpreter's identity, the checker's own
 * text, the sha256 of the judged source). An entry repeats its key, and is used only when the key, its
 * layout and its value's shape all check out: anything else is a miss, counted as rejected, and the fresh
 * verdict overwrites it. Every write is atomic and goes through the guarded `.concord` folder (no link is
 * ever followed).
 */
export class VerdictCache {
  readonly folder: GuardedFolder;
  readonly stats: CacheStats = { hits: 0, misses: 0, stored: 0, rejected: 0, unwritable: 0, pruned: 0 };
  readonly #version: string;
  #firstProblem: string | undefined;

  /** @param maxBytes what `prune` keeps the cache folder's entries within */
  constructor(
    readonly root: string,
    version: string = judgedBy(),
    readonly maxBytes: number = DEFAULT_CACHE_MAX_MB * 1024 * 1024,
  ) {
    this.folder = new GuardedFolder(join(root, '.concord', 'cache'), '.concord/cache');
    this.#version = version;
  }

  #file(kind: CacheKind | NoteKind | BlobKind, parts: readonly string[], extension = 'json'): string {
    const hash = sha256(JSON.stringify([FORMAT, this.#version, kind, ...parts]));
    return `${kind}/${hash.slice(0, 2)}/${hash}.${extension}`;
  }

  /**
   * The bytes stored for `parts` in a binary entry: a header line (JSON: the key, the payload's size and
   * sha256) and the payload. Anything that does not check out (another key, a short or altered payload, a
   * link) is undefined and counted as rejected. Binary entries are no verdicts: they count as neither hit nor miss.
   */
  async getBytes(kind: BlobKind, parts: readonly string[]): Promise<Uint8Array | undefined> {
    let bytes: Buffer | undefined;
    try {
      bytes = await this.folder.read(this.#file(kind, parts, 'bin'), { touch: true });
    } catch (error) {
      this.#noteProblem(error);
      this.stats.rejected++;
      return undefined;
    }
    if (bytes === undefined) return undefined;
    const end = bytes.indexOf(0x0a);
    let payload: Buffer | undefined;
    if (bytes.length <= MAX_BLOB_BYTES && end > 0 && end < 64 * 1024) {
      try {
        const header = JSON.parse(bytes.subarray(0, end).toString('utf8')) as Record<string, unknown>;
        const body = bytes.subarray(end + 1);
        const sameKey =
          Array.isArray(header.parts) &&
          header.parts.length === parts.length &&
          header.parts.every((p, i) => p === parts[i]);
        const intact =
          header.bytes === body.length && header.sha256 === createHash('sha256').update(body).digest('hex');
        if (header.format === FORMAT && header.concord === this.#version && header.kind === kind && sameKey && intact)
          payload = body;
      } catch {
        // Not JSON: not an entry concord wrote.
      }
    }
    if (payload === undefined) this.stats.rejected++;
    return payload;
  }

  /** Stores `bytes` for `parts` as a binary entry (atomically); a write that fails is counted and otherwise ignored. */
  putBytes(kind: BlobKind, parts: readonly string[], bytes: Uint8Array): Promise<void> {
    const header = JSON.stringify({
      format: FORMAT,
      concord: this.#version,
      kind,
      parts,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    return this.#track(
      this.folder
        .write(this.#file(kind, parts, 'bin'), Buffer.concat([Buffer.from(header + '\n'), bytes]))
        .catch((error: unknown) => {
          this.#noteProblem(error);
          this.stats.unwritable++;
        }),
    );
  }

  /** Removes the binary entry for `parts` (its content proved unusable); a failure leaves it to be rejected again. */
  dropBytes(kind: BlobKind, parts: readonly string[]): Promise<void> {
    return this.#track(this.folder.remove(this.#file(kind, parts, 'bin')).catch(() => {}));
  }

  // Binary entries are written from a worker's boot, in the background of the run: the run waits for them
  // (`settled`) before it prunes and before it ends, so none is cut off by the process exiting.
  readonly #writing = new Set<Promise<void>>();

  #track(work: Promise<void>): Promise<void> {
    this.#writing.add(work);
    void work.finally(() => this.#writing.delete(work));
    return work;
  }

  /** Resolves once every binary write and removal started so far has finished. */
  async settled(): Promise<void> {
    while (this.#writing.size > 0) await Promise.allSettled([...this.#writing]);
  }

  /** The value stored for `parts`, when an entry is there, matches the key exactly and `valid` accepts its value. */
  async get<T>(
    kind: CacheKind,
    parts: readonly string[],
    valid: (value: unknown) => value is T,
  ): Promise<T | undefined> {
    const value = await this.#lookup(kind, parts, valid);
    if (value === undefined) this.stats.misses++;
    else this.stats.hits++;
    return value;
  }

  /**
   * The note stored for `parts`, checked as a verdict is. Notes are no verdicts: they count as neither hit
   * nor miss (an entry that does not check out still counts as rejected).
   */
  recall<T>(kind: NoteKind, parts: readonly string[], valid: (value: unknown) => value is T): Promise<T | undefined> {
    return this.#lookup(kind, parts, valid);
  }

  /** The value of the JSON entry for `parts` when it checks out; an entry that does not is counted as rejected. */
  async #lookup<T>(
    kind: CacheKind | NoteKind,
    parts: readonly string[],
    valid: (value: unknown) => value is T,
  ): Promise<T | undefined> {
    let bytes: Buffer | undefined;
    try {
      // A read marks the entry as used now: pruning removes the least recently used first.
      bytes = await this.folder.read(this.#file(kind, parts), { touch: true });
    } catch (error) {
      // A link, a folder or an unreadable file where an entry belongs: not trusted, not followed.
      this.#noteProblem(error);
      this.stats.rejected++;
      return undefined;
    }
    if (bytes === undefined) return undefined;
    const value = bytes.length <= MAX_ENTRY_BYTES ? this.#read(bytes, kind, parts, valid) : undefined;
    if (value === undefined) this.stats.rejected++;
    return value;
  }

  #read<T>(
    bytes: Buffer,
    kind: CacheKind | NoteKind,
    parts: readonly string[],
    valid: (value: unknown) => value is T,
  ): T | undefined {
    let entry: unknown;
    try {
      entry = JSON.parse(bytes.toString('utf8'));
    } catch {
      return undefined;
    }
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
    const e = entry as Record<string, unknown>;
    const sameKey =
      Array.isArray(e.parts) && e.parts.length === parts.length && e.parts.every((p, i) => p === parts[i]);
    if (e.format !== FORMAT || e.concord !== this.#version || e.kind !== kind || !sameKey || !('value' in e))
      return undefined;
    return valid(e.value) ? e.value : undefined;
  }

  /** Stores `value` for `parts` (atomically); a write that fails is counted and otherwise ignored. */
  async put(kind: CacheKind, parts: readonly string[], value: unknown): Promise<void> {
    if (await this.#write(kind, parts, value)) this.stats.stored++;
  }

  /**
   * Stores a note for `parts` (atomically), uncounted as notes are; a write that fails is counted and otherwise
   * ignored.
   */
  async note(kind: NoteKind, parts: readonly string[], value: unknown): Promise<void> {
    await this.#write(kind, parts, value);
  }

  /** What first kept an entry from being read or written (a link, a full disk), one line, for the cache's line. */
  get firstProblem(): string | undefined {
    return this.#firstProblem;
  }

  #noteProblem(error: unknown): void {
    this.#firstProblem ??= (error instanceof Error ? error.message : String(error)).split('\n')[0];
  }

  async #write(kind: CacheKind | NoteKind, parts: readonly string[], value: unknown): Promise<boolean> {
    const entry = JSON.stringify({ format: FORMAT, concord: this.#version, kind, parts, value });
    try {
      await this.folder.write(this.#file(kind, parts), entry + '\n');
      return true;
    } catch (error) {
      this.#noteProblem(error);
      this.stats.unwritable++;
      return false;
    }
  }

  /**
   * Keeps the entries within `maxBytes`: when they hold more, the least recently used (read or written) go
   * first until the rest fit. Only files named as concord names entries are counted or removed; a folder
   * that cannot be listed or an entry that cannot be removed is left as it is (the next run tries again).
   */
  async prune(): Promise<void> {
    await this.settled();
    const entries: Array<{ rel: string; size: number; used: number }> = [];
    try {
      for (const kind of await this.folder.list('')) {
        if (!kind.isDirectory()) continue;
        for (const shard of await this.folder.list(kind.name)) {
          if (!shard.isDirectory() || !/^[0-9a-f]{2}$/.test(shard.name)) continue;
          for (const file of await this.folder.list(`${kind.name}/${shard.name}`)) {
            if (!file.isFile() || !ENTRY_NAME.test(file.name) || !file.name.startsWith(shard.name)) continue;
            const rel = `${kind.name}/${shard.name}/${file.name}`;
            const stats = await lstat(this.folder.path(rel));
            entries.push({ rel, size: stats.size, used: stats.mtimeMs });
          }
        }
      }
    } catch {
      return;
    }
    let total = entries.reduce((sum, e) => sum + e.size, 0);
    if (total <= this.maxBytes) return;
    entries.sort((a, b) => a.used - b.used || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    for (const entry of entries) {
      if (total <= this.maxBytes) break;
      try {
        await this.folder.remove(entry.rel);
        total -= entry.size;
        this.stats.pruned++;
      } catch {
        // Not removable here (a read-only cache): kept, and counted as still there.
      }
    }
  }
}

/** True when the environment turns the cache off (`CONCORD_NO_CACHE` set to anything but empty or `0`). */
export function cacheDisabledByEnvironment(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CONCORD_NO_CACHE;
  return value !== undefined && value !== '' && value !== '0';
}

/**
 * The size cap of the cache in bytes: `CONCORD_CACHE_MAX_MB` (a whole number of megabytes, 0 keeping
 * nothing past the run) or DEFAULT_CACHE_MAX_MB. Any other value is bad input: a UserError naming it.
 */
export function cacheMaxBytes(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.CONCORD_CACHE_MAX_MB;
  if (value === undefined || value === '') return DEFAULT_CACHE_MAX_MB * 1024 * 1024;
  if (!/^[0-9]{1,7}$/.test(value)) {
    throw new UserError(`CONCORD_CACHE_MAX_MB=${JSON.stringify(value)} is not a whole number of megabytes`, {
      hint: `set it to a number such as ${DEFAULT_CACHE_MAX_MB}, or unset it for the default (${DEFAULT_CACHE_MAX_MB} MB)`,
    });
  }
  return Number(value) * 1024 * 1024;
}

/**
 * `verdict cache: 40 reused, 12 computed (.concord/cache)`, with what was ignored or not written, and why the first
 * was.
 */
export function cacheLine(cache: VerdictCache): string {
  const { hits, misses, rejected, unwritable, pruned } = cache.stats;
  const extra = [
    rejected > 0 ? `${rejected} unreadable or mismatched entr${rejected === 1 ? 'y' : 'ies'} ignored` : '',
    unwritable > 0 ? `${unwritable} could not be written` : '',
    pruned > 0 ? `${pruned} least recently used removed to stay within ${cache.maxBytes / (1024 * 1024)} MB` : '',
  ].filter(Boolean);
  const why = cache.firstProblem === undefined ? '' : `; first problem: ${cache.firstProblem}`;
  return `verdict cache: ${hits} reused, ${misses} computed (.concord/cache${extra.length > 0 ? `; ${extra.join(', ')}` : ''}${why})`;
}
