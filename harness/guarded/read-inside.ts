import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { GuardError } from './folder.js';
import { inside } from './inside.js';

/**
 * Reads a project file (a scenario, a seed) whose real path lies inside the project root: a link that
 * leads out of the root is refused before a byte of its target is read, so nothing of it reaches a message.
 * Anything but a regular file (a folder, a pipe), or a file above `maxBytes`, is refused naming it.
 */
export async function readInsideRoot(root: string, file: string, maxBytes = Infinity): Promise<string> {
  const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)]);
  if (realFile === realRoot || !inside(realFile, realRoot)) {
    throw new GuardError(
      file,
      `leads outside the project root ${realRoot} (it resolves to ${realFile})`,
      'keep scenario files inside the project; copy the file in instead of linking to it',
    );
  }
  const handle = await open(realFile, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (!stats.isFile())
      throw new GuardError(
        file,
        `is ${stats.isDirectory() ? 'a folder' : 'not a regular file'}, where a scenario file is expected`,
        'rename or remove it: every *.yml in scenarios/ is read as a scenario',
      );
    if (stats.size > maxBytes)
      throw new GuardError(
        file,
        `is ${stats.size} bytes, more than a scenario may be (${maxBytes})`,
        'split it into several scenarios, or move large data into a fixture plugin',
      );
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
