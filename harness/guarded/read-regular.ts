import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { GuardError } from './folder.js';

/** The most a file named on a command line may hold (tools, an SDK, request bodies, a program): room to spare. */
export const MAX_NAMED_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Reads a file named on the command line that comes from elsewhere (a shard's results, a downloaded
 * artifact): a symbolic link is refused before a byte of its target is read, and so is anything but a
 * regular file (a pipe would block forever) or a file above `maxBytes`. `what` names the file in messages.
 */
export async function readRegularFile(file: string, what: string, maxBytes: number): Promise<Buffer> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new GuardError(
        file,
        `is a symbolic link, not ${what}`,
        'name the file itself; concord does not follow links in files it is given',
      );
    if (code === 'ENOENT') throw new GuardError(file, 'does not exist', `name ${what}`);
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile())
      throw new GuardError(
        file,
        `is ${stats.isDirectory() ? 'a folder' : 'not a regular file'}, not ${what}`,
        `name ${what}`,
      );
    if (stats.size > maxBytes)
      throw new GuardError(file, `is ${stats.size} bytes, more than ${what} may be (${maxBytes})`, `name ${what}`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
