import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { GuardError } from './folder.js';
import { inside } from './inside.js';

/** The most a file named on a command line may hold (tools, an SDK, request bodies, a program): room to spare. */
const MAX_NAMED_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The text of a file's bytes: UTF-8, or UTF-16 when a byte order mark says so (as Windows PowerShell writes files).
 * The mark itself is no character of the text, as JSON, Python and Markdown read it.
 */
function decodeText(bytes: Uint8Array): string {
  const [first, second] = bytes;
  const encoding =
    first === 0xff && second === 0xfe ? 'utf-16le' : first === 0xfe && second === 0xff ? 'utf-16be' : 'utf-8';
  return new TextDecoder(encoding).decode(bytes);
}

/**
 * The text of a file the user names as input to a command (a program, a tool list, an SDK, a request body): a
 * regular file or a link to one, of at most `MAX_NAMED_FILE_BYTES`. `what` names it in messages.
 */
export async function readNamedInput(file: string, what: string): Promise<string> {
  return decodeText(await readRegularFile(file, what, MAX_NAMED_FILE_BYTES, { followLinks: true }));
}

interface ReadOptions {
  followLinks?: boolean;
  hint?: string;
  /**
   * The project root a project file must lie in once its links are followed (a config, a scenario, a recording):
   * a link leading out of it is refused before a byte of its target is read, so nothing of it reaches a message.
   */
  root?: string;
}

/**
 * Reads a file named on the command line: anything but a regular file (a pipe would block forever, a device
 * never end) or a file above `maxBytes` is refused. A file that comes from elsewhere (a shard's results, a
 * downloaded artifact) is refused when it is a symbolic link, before a byte of its target is read; the user's
 * own input (`followLinks`) is read through one, as its target is judged the same way. `what` names the file in
 * messages; `hint` says what to do instead (by default, to name such a file).
 */
export async function readRegularFile(
  file: string,
  what: string,
  maxBytes: number,
  options: ReadOptions = {},
): Promise<Buffer> {
  let handle;
  try {
    handle = await open(pathToOpen(file, what, options), openFlags(options));
  } catch (error) {
    throw openRefusal(error, file, what, options);
  }
  try {
    judge(await handle.stat(), file, what, maxBytes, options);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** `readRegularFile` for callers that cannot wait (a recording read while a scenario is resolved). */
export function readRegularFileSync(file: string, what: string, maxBytes: number, options: ReadOptions = {}): Buffer {
  let fd: number;
  try {
    fd = openSync(pathToOpen(file, what, options), openFlags(options));
  } catch (error) {
    throw openRefusal(error, file, what, options);
  }
  try {
    judge(fstatSync(fd), file, what, maxBytes, options);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The path to open: `file` itself, or, for a project file, its real path once it is known to lie inside the real
 * project root (the real path is what is opened, so a link re-pointed in between is not followed out).
 */
function pathToOpen(file: string, what: string, { root }: ReadOptions): string {
  if (root === undefined) return file;
  const realRoot = realpathSync(root);
  const realFile = realpathSync(file);
  if (realFile === realRoot || !inside(realFile, realRoot))
    throw new GuardError(
      file,
      `leads outside the project root ${realRoot} (it resolves to ${realFile})`,
      `keep ${what} inside the project; copy it in instead of linking to it`,
    );
  return realFile;
}

// Opened without blocking: opening a pipe with no writer would wait for one.
const openFlags = ({ followLinks = false }: ReadOptions): number =>
  constants.O_RDONLY | constants.O_NONBLOCK | (followLinks ? 0 : constants.O_NOFOLLOW);

/** What a refusal tells the user to do: the caller's hint, or to name such a file. */
const hintOf = (what: string, { hint }: ReadOptions): string => hint ?? `name ${what}`;

/** What to throw when `file` could not be opened: a GuardError saying why, or the error itself. */
function openRefusal(error: unknown, file: string, what: string, options: ReadOptions): unknown {
  const hint = hintOf(what, options);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP' && options.followLinks)
    return new GuardError(file, 'is a link that leads round in a loop', hint);
  if (code === 'ELOOP')
    return new GuardError(
      file,
      `is a symbolic link, not ${what}`,
      'name the file itself; concord does not follow links in files it is given',
    );
  if (code === 'ENOENT') return new GuardError(file, 'does not exist', hint);
  return error;
}

/** Refuses what was opened unless it is a regular file of at most `maxBytes`. */
function judge(stats: Stats, file: string, what: string, maxBytes: number, options: ReadOptions) {
  const hint = hintOf(what, options);
  if (!stats.isFile())
    throw new GuardError(file, `is ${stats.isDirectory() ? 'a folder' : 'not a regular file'}, not ${what}`, hint);
  if (stats.size > maxBytes)
    throw new GuardError(file, `is ${stats.size} bytes, more than ${what} may be (${maxBytes})`, hint);
}
