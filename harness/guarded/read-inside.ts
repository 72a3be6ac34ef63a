import { readRegularFile } from './read-regular.js';

/**
 * Reads a scenario whose real path lies inside the project root, judged as `readRegularFile` judges a project
 * file: a link out of the root, anything but a regular file (a folder, a pipe), or a file above `maxBytes`, is
 * refused naming it.
 */
export async function readInsideRoot(root: string, file: string, maxBytes = Infinity): Promise<string> {
  const read = await readRegularFile(file, 'a scenario', maxBytes, {
    followLinks: true,
    root,
    hint: 'every *.yml in scenarios/ is read as a scenario: rename or remove what is not one, split one that is too large into several scenarios (or move large data into a fixture plugin)',
  });
  return read.toString('utf8');
}
