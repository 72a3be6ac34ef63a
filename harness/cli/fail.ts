import { RuntimeOptionError } from '../../runtimes/seam/options.js';
import { ReviewInterrupted } from '../snapshot/interrupted.js';
import { UserError } from '../user-error.js';
import { exitWith } from './exit.js';

/**
 * What a file-system error means and how to fix it, and whether it is the user's input (exit 2) or the machine (exit
 * 1).
 */
const ERRNO: Readonly<Record<string, { what: string; fix: string; exit: 1 | 2 }>> = {
  EISDIR: { what: 'is a folder where a file is expected', fix: 'move the folder away or name a file', exit: 2 },
  ENOTDIR: {
    what: 'has a file where a folder is expected',
    fix: 'move the file away so concord can keep a folder there',
    exit: 2,
  },
  EEXIST: { what: 'already exists and is in the way', fix: 'move it away', exit: 2 },
  ELOOP: {
    what: 'is a symbolic link concord will not follow',
    fix: 'replace the link with a real file or folder',
    exit: 2,
  },
  ENAMETOOLONG: { what: 'has a name too long for this file system', fix: 'choose a shorter name', exit: 2 },
  EACCES: {
    what: 'is not accessible: permission denied',
    fix: 'give your user write access to it (chmod/chown), or run from a copy you own',
    exit: 1,
  },
  EPERM: {
    what: 'cannot be changed: operation not permitted',
    fix: 'check its permissions and attributes (chattr, chmod), or run from a copy you own',
    exit: 1,
  },
  EROFS: {
    what: 'is on a read-only file system',
    fix: 'run from a writable checkout, or set CI so nothing under snapshots/ is written',
    exit: 1,
  },
  ENOSPC: {
    what: 'cannot be written: no space left on the device',
    fix: 'free some disk space and run again',
    exit: 1,
  },
  EDQUOT: {
    what: 'cannot be written: disk quota exceeded',
    fix: 'free some space within your quota and run again',
    exit: 1,
  },
  ENOENT: { what: 'does not exist', fix: 'check the path', exit: 2 },
  EMFILE: {
    what: 'could not be opened: too many open files',
    fix: 'raise the open-file limit (ulimit -n) and run again',
    exit: 1,
  },
};

/** `--debug` (taken off the command line before parsing): show stacks. */
export function debugWanted(): boolean {
  return process.env.CONCORD_DEBUG === '1';
}

/**
 * The one place a failure becomes what the command line prints and its exit code: a `UserError` says what
 * to fix (exit 2, or 1 when the input was fine but the run could not go on), a runtime option out of bounds
 * is bad usage (2), a file-system error names the path and the fix, Ctrl-C is 130, and anything else is a
 * bug in concord: exit 1, the stack with --debug.
 */
export function describeFailure(error: unknown): { message: string; exit: number } {
  if (error instanceof ReviewInterrupted) return { message: error.message, exit: 130 };
  if (error instanceof UserError) return { message: error.message, exit: error.exitCode };
  if (error instanceof RuntimeOptionError) return { message: error.message, exit: 2 };
  const errno = error as NodeJS.ErrnoException;
  const known = errno?.code ? ERRNO[errno.code] : undefined;
  if (known && errno.path) {
    const dest = (errno as { dest?: string }).dest;
    return {
      message: `${errno.path}${dest ? ` (to ${dest})` : ''} ${known.what} (${errno.code} on ${errno.syscall ?? 'access'})\n  hint: ${known.fix}`,
      exit: known.exit,
    };
  }
  if (known) return { message: `${errno.message}\n  hint: ${known.fix}`, exit: known.exit };
  const message = messageOf(error);
  return { message: `${message}${debugWanted() ? '' : ' (run with --debug for the stack)'}`, exit: 1 };
}

/**
 * What went wrong, in words: several failures at once (stopping what a run started: its runtimes, its
 * interpreters) each say theirs, so the line names what could not be stopped without --debug.
 */
function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0)
    return `${error.message}: ${error.errors.map(messageOf).join('; ')}`;
  return error instanceof Error ? error.message : String(error);
}

/** Prints the failure in one message (the stack only with --debug) and exits with its code. */
export function failAndExit(command: string, error: unknown): never {
  const { message, exit } = describeFailure(error);
  console.error(`concord ${command}: ${message}`);
  if (debugWanted() && error instanceof Error && error.stack) console.error(error.stack);
  exitWith(exit);
}
