import { realpath } from 'node:fs/promises';
import { GuardError } from './folder.js';
import { inside } from './inside.js';
import { readRegularFile } from './read-regular.js';

/**
 * Reads a project file (a scenario, a seed) whose real path lies inside the project root: a link that
 * leads out of the root is refused before a byte of its target is read, so nothing of it reaches a message.
 * The real path is what is read, and judged as `readRegularFile` judges a file: anything but a regular file
 * (a folder, a pipe), or a file above `maxBytes`, is refused naming it.
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
  const read = await readRegularFile(realFile, 'a scenario', maxBytes, {
    hint: 'every *.yml in scenarios/ is read as a scenario: rename or remove what is not one, split one that is too large into several scenarios (or move large data into a fixture plugin)',
  });
  return read.toString('utf8');
}
