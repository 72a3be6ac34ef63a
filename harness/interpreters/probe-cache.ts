import { realpath, stat } from 'node:fs/promises';
import type { VerdictCache } from '../cache/verdict-cache.js';

/** What a local CPython says about itself when probed (see local.ts). */
export interface Probed {
  version: string;
  python: string;
  unicode: string;
  build: string;
}

/**
 * A probe's answer with the files the interpreter had mapped while it answered (its binary, libpython, extension
 * modules).
 */
export interface ProbeAnswer {
  probed: Probed;
  files: readonly string[];
}

/** What the cache keeps for one executable: the answer, and each mapped file with its stat when it was given. */
interface Note {
  probed: Probed;
  files: Array<[string, string]>;
}

const isProbed = (value: unknown): value is Probed => {
  if (value === null || typeof value !== 'object') return false;
  const p = value as Record<string, unknown>;
  return (
    typeof p.version === 'string' &&
    typeof p.python === 'string' &&
    typeof p.unicode === 'string' &&
    typeof p.build === 'string'
  );
};

const isNote = (value: unknown): value is Note => {
  if (value === null || typeof value !== 'object') return false;
  const note = value as Record<string, unknown>;
  return (
    isProbed(note.probed) &&
    Array.isArray(note.files) &&
    note.files.every((f) => Array.isArray(f) && f.length === 2 && f.every((s) => typeof s === 'string'))
  );
};

/**
 * A file as it is now: device, inode, size, modification and change times (nanoseconds). An interpreter
 * reinstalled or upgraded in place changes it (a new inode when replaced, a new size or times when rewritten).
 */
async function signature(file: string): Promise<string | undefined> {
  try {
    const s = await stat(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * Probes local interpreters, each file once per discovery, and with a verdict cache each only when it changed:
 * an answer is kept (as a note in the cache, `interpreter/`) under the real path and stat of the executable,
 * with the stat of every file the interpreter mapped while answering (libpython, the extension modules it
 * loaded). It is reused while the executable and all those files are as they were; a changed, replaced or
 * missing one is probed again and its note rewritten. A probe that fails is never kept.
 */
export class ProbeCache {
  readonly #byRealPath = new Map<string, Promise<Probed | undefined>>();

  constructor(
    private readonly probe: (executable: string) => Promise<ProbeAnswer | undefined>,
    private readonly cache?: VerdictCache,
  ) {}

  /** What `executable` says about itself (undefined: it does not run, or answers no probe). */
  async answer(executable: string): Promise<Probed | undefined> {
    const real = await realpath(executable).catch(() => undefined);
    if (real === undefined) return undefined;
    let answer = this.#byRealPath.get(real);
    if (answer === undefined) {
      answer = this.#answer(executable, real);
      this.#byRealPath.set(real, answer);
    }
    return answer;
  }

  async #answer(executable: string, real: string): Promise<Probed | undefined> {
    const cache = this.cache;
    const own = await signature(real);
    if (cache === undefined || own === undefined) return (await this.probe(executable))?.probed;
    const parts = [real, own];
    const kept = await cache.recall('interpreter', parts, isNote);
    if (kept !== undefined && (await unchanged(kept.files))) return kept.probed;
    const fresh = await this.probe(executable);
    if (fresh === undefined) return undefined;
    const files = await Promise.all(fresh.files.map(async (file) => [file, await signature(file)] as const));
    // A mapped file that cannot be looked at now (deleted since) cannot tell a change: such an answer is not kept.
    if (files.every((f): f is readonly [string, string] => f[1] !== undefined)) {
      await cache.note('interpreter', parts, {
        probed: fresh.probed,
        files: files.map(([file, sig]) => [file, sig]),
      } satisfies Note);
    }
    return fresh.probed;
  }
}

async function unchanged(files: ReadonlyArray<readonly [string, string]>): Promise<boolean> {
  const now = await Promise.all(files.map(([file]) => signature(file)));
  return files.every(([, was], i) => now[i] === was);
}
