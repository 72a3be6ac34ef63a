import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { alive } from '../../runtimes/seam/owned-temp-dir.js';
import { scrubContent } from './secret.js';

/** Temp files of interrupted writes start with this, so they can be recognised and swept. */
export const TEMP_PREFIX = '.concord-tmp-';

/** `<prefix><name>-<pid>-<random>`: the writer's pid tells a sweep whether the write may still be under way. */
const TEMP_NAME = new RegExp(`^${TEMP_PREFIX.replace(/[.]/g, '\\.')}.*-(\\d+)-[0-9a-f]+$`);

/**
 * Replaces `path` with `content` so that a reader (or a crash at any instant, SIGKILL included) sees the
 * old file or the new one, never a torn mix: the bytes go to a temp file in the same directory, are flushed
 * to disk, then renamed over the target. The temp file is created exclusively and never through a link.
 * Every secret the process holds (the model key) is scrubbed from the content first.
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `${TEMP_PREFIX}${basename(path)}-${process.pid}-${randomBytes(4).toString('hex')}`);
  const handle = await open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    try {
      await handle.writeFile(scrubContent(content));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    // A full disk fails the write: nothing half-written stays, and the error names the file (a write on an open
    // descriptor names none).
    await rm(temp, { force: true });
    const errno = error as NodeJS.ErrnoException;
    if (errno.code !== undefined && errno.path === undefined) errno.path = path;
    throw error;
  }
}

/**
 * Removes temp files left in `dir` by writes whose process is gone. A live process's temp file (this
 * process's too) may be a write in flight, about to be renamed: it is left alone.
 */
export async function sweepTempFiles(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const stale = names.filter((name) => {
    const owner = TEMP_NAME.exec(name);
    return owner !== null && !alive(Number(owner[1]));
  });
  await Promise.all(stale.map((n) => rm(join(dir, n), { force: true })));
}
