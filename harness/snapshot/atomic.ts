import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Temp files of interrupted writes start with this, so they can be recognised and swept. */
export const TEMP_PREFIX = '.concord-tmp-';

/**
 * Replaces `path` with `content` so that a reader (or a crash at any instant, SIGKILL included) sees the
 * old file or the new one, never a torn mix: the bytes go to a temp file in the same directory, are flushed
 * to disk, then renamed over the target.
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `${TEMP_PREFIX}${basename(path)}-${process.pid}-${randomBytes(4).toString('hex')}`);
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Removes temp files left in `dir` by writes that were killed. */
export async function sweepTempFiles(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => n.startsWith(TEMP_PREFIX)).map((n) => rm(join(dir, n), { force: true })));
}
