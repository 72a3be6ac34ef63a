import { createHash } from 'node:crypto';
import { constants, type Dirent, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../user-error.js';
import { sweepTempFiles, TEMP_PREFIX, writeFileAtomic } from './atomic.js';

/**
 * A write, delete or read below a guarded folder that would leave it or go through a link. Exit 2: the tree needs
 * fixing.
 */
export class GuardError extends UserError {
  constructor(
    readonly path: string,
    problem: string,
    hint: string,
  ) {
    super(problem, { place: { file: path }, hint });
  }
}

/**
 * Checks a path meant to lie below a guarded folder (from a manifest, a scenario name, a folder listing):
 * relative, `/`-separated, no empty, `.` or `..` segment, no NUL, no backslash. Returns its segments.
 */
export function relativeSegments(path: unknown, where: string): string[] {
  const bad = (why: string) =>
    new GuardError(
      where,
      `${JSON.stringify(path)} ${why}`,
      'paths below snapshots/ and .concord/ are relative, use "/" and stay inside; regenerate the file with the gate',
    );
  if (typeof path !== 'string' || path === '') throw bad('is not a path');
  if (path.includes('\0')) throw bad('contains a NUL byte');
  if (path.includes('\\')) throw bad('contains a backslash');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw bad('is absolute');
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) throw bad('has an empty, "." or ".." segment');
  return segments;
}

const NO_LINKS =
  'concord never follows or writes through a link below snapshots/ or .concord/; replace it with a real file or folder, or remove it';

/**
 * The one door for every write and delete below `snapshots/` or `.concord/`. Each segment from the folder
 * down is checked with lstat: a link is an error naming it, never followed; new folders are made one level
 * at a time; files are replaced by an atomic rename; a delete removes only what lies below the folder.
 */
export class GuardedFolder {
  /** @param label how messages name the folder, e.g. `snapshots` */
  constructor(
    readonly dir: string,
    readonly label: string,
  ) {}

  /** Fails (naming it) when the folder is a link or not a folder; a missing one is fine, it is made on first write. */
  async check(): Promise<void> {
    await this.folderOf(['.'], false);
  }

  /** The absolute path of `rel` (validated), for messages and for callers that only report it. */
  path(rel: string): string {
    return join(this.dir, ...relativeSegments(rel, this.dir));
  }

  async write(rel: string, content: string | Uint8Array): Promise<void> {
    const segments = relativeSegments(rel, this.dir);
    const parent = (await this.folderOf(segments, true))!;
    const target = join(parent, segments[segments.length - 1]!);
    const stats = await lstatOrUndefined(target);
    if (stats?.isSymbolicLink()) throw new GuardError(target, 'is a symbolic link', NO_LINKS);
    if (stats && !stats.isFile())
      throw new GuardError(target, `is ${kind(stats)}, not a regular file`, `remove it; concord writes a file there`);
    await writeFileAtomic(target, content);
  }

  /**
   * Removes the file or folder `rel` (nothing when absent), then each folder above it that this leaves empty, up to
   * (never) the guarded folder itself; a link anywhere on the way or inside is an error.
   */
  async remove(rel: string): Promise<void> {
    const segments = relativeSegments(rel, this.dir);
    const parent = await this.folderOf(segments, false);
    if (parent === undefined) return;
    const target = join(parent, segments[segments.length - 1]!);
    const stats = await lstatOrUndefined(target);
    if (stats === undefined) return;
    if (stats.isSymbolicLink()) throw new GuardError(target, 'is a symbolic link', NO_LINKS);
    if (stats.isDirectory()) await assertNoLinks(target);
    await rm(target, { recursive: stats.isDirectory(), force: true });
    // folderOf found each level a real folder; rmdir removes only an empty one, so a sibling keeps its parent.
    for (let level = segments.length - 1; level > 0; level--) {
      const emptied = await rmdir(join(this.dir, ...segments.slice(0, level))).then(
        () => true,
        () => false,
      );
      if (!emptied) return;
    }
  }

  /**
   * The bytes of the regular file `rel`, or undefined when absent; never read through a link. With `touch`,
   * the file's times are set to now through the open file (a cache marks what it used).
   */
  async read(rel: string, { touch = false }: { touch?: boolean } = {}): Promise<Buffer | undefined> {
    const segments = relativeSegments(rel, this.dir);
    const parent = await this.folderOf(segments, false);
    if (parent === undefined) return undefined;
    const target = join(parent, segments[segments.length - 1]!);
    let handle;
    try {
      handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      if (code === 'ELOOP') throw new GuardError(target, 'is a symbolic link', NO_LINKS);
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile())
        throw new GuardError(target, `is ${kind(stats)}, not a regular file`, 'remove it; concord keeps a file there');
      const bytes = await handle.readFile();
      if (touch) {
        const now = new Date();
        // A file the user may read but not change (a cache restored read-only) is read all the same.
        await handle.utimes(now, now).catch(() => {});
      }
      return bytes;
    } finally {
      await handle.close();
    }
  }

  /** The entries of the folder `rel` (`''` for the guarded folder itself), temp files left out; a link is an error. */
  async list(rel: string): Promise<Dirent[]> {
    const segments = rel === '' ? [] : relativeSegments(rel, this.dir);
    const dir = await this.folderOf([...segments, '.'], false);
    if (dir === undefined) return [];
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const kept = entries.filter((e) => !e.name.startsWith(TEMP_PREFIX));
    const link = kept.find((e) => e.isSymbolicLink());
    if (link) throw new GuardError(join(dir, link.name), 'is a symbolic link', NO_LINKS);
    return kept;
  }

  /**
   * A hash of what lies at `rel` — a file's bytes, or a folder's names and files throughout — or null when
   * nothing does. Proposals record it to prove later that the snapshot is still the one they were made against.
   */
  async fingerprint(rel: string): Promise<string | null> {
    const segments = relativeSegments(rel, this.dir);
    const parent = await this.folderOf(segments, false);
    const target = parent === undefined ? undefined : join(parent, segments[segments.length - 1]!);
    const stats = target === undefined ? undefined : await lstatOrUndefined(target);
    if (stats === undefined) return null;
    if (stats.isSymbolicLink()) throw new GuardError(target!, 'is a symbolic link', NO_LINKS);
    const hash = createHash('sha256');
    if (!stats.isDirectory()) {
      hash.update('file\0').update((await this.read(rel))!);
      return `sha256:${hash.digest('hex')}`;
    }
    const walk = async (folder: string): Promise<void> => {
      const entries = (await this.list(folder)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const path = `${folder}/${entry.name}`;
        hash.update(`${entry.isDirectory() ? 'folder' : 'file'}\0${entry.name}\0`);
        if (entry.isDirectory()) await walk(path);
        else hash.update((await this.read(path))!).update('\0');
      }
    };
    await walk(rel);
    return `sha256:${hash.digest('hex')}`;
  }

  /** Removes temp files of dead writers in the folder `rel`. */
  async sweep(rel: string): Promise<void> {
    const dir = await this.folderOf([...relativeSegments(rel, this.dir), '.'], false);
    if (dir !== undefined) await sweepTempFiles(dir);
  }

  /**
   * The folder holding the last segment, each level checked to be a real folder. Missing levels are made
   * when `create`, else the answer is undefined. The guarded folder itself must not be a link either.
   */
  private async folderOf(segments: readonly string[], create: boolean): Promise<string | undefined> {
    let current = this.dir;
    const levels = ['', ...segments.slice(0, -1)];
    for (const [i, segment] of levels.entries()) {
      current = segment === '' ? current : join(current, segment);
      let stats = await lstatOrUndefined(current);
      if (stats === undefined) {
        if (!create) return undefined;
        // The guarded folder's own parents are the user's to have; below it, one level at a time.
        if (i === 0) await mkdir(current, { recursive: true });
        else
          await mkdir(current).catch((error: NodeJS.ErrnoException) => {
            if (error.code !== 'EEXIST') throw error;
          });
        stats = await lstat(current);
      }
      if (stats.isSymbolicLink()) throw new GuardError(current, 'is a symbolic link', NO_LINKS);
      if (!stats.isDirectory())
        throw new GuardError(
          current,
          `is ${kind(stats)}, not a folder`,
          `move it away; concord keeps the ${this.label} folder there`,
        );
    }
    return current;
  }
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Walks a folder about to be removed: a link inside it is an error, so a delete never reaches past it. */
async function assertNoLinks(dir: string): Promise<void> {
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isSymbolicLink()) throw new GuardError(path, 'is a symbolic link', NO_LINKS);
      if (entry.isDirectory()) stack.push(path);
    }
  }
}

function kind(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFile()) return 'a file';
  if (stats.isFIFO()) return 'a pipe';
  if (stats.isSocket()) return 'a socket';
  return 'a device or special file';
}
