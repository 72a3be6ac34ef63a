import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { installedWithout } from '../../test/packed.js';
import { keepCache, seedCache } from './warm-cache.js';

/**
 * `examples/<name>` as a team has it: copied outside this repository (without its node_modules and .concord), with
 * concord installed from the packed tarball, once for the test file that calls this and removed after it.
 * `project.root` is the copy and `project.bin` its concord CLI, once the file's tests start. Not about a cold
 * start: its gates start from the verdicts (and the Pyodide memory snapshot) earlier gates of the run computed,
 * and leave theirs.
 */
export function installedExample(name: string): { root: string; bin: string } {
  const project = { root: '', bin: '' };
  beforeAll(async () => {
    project.root = await mkdtemp(join(tmpdir(), `concord-${name}-`));
    await cp(join(packageRoot(), 'examples', name), project.root, {
      recursive: true,
      filter: (source) => !/[/\\](node_modules|\.concord)$/.test(source),
    });
    project.bin = await installedWithout(project.root, []);
    await seedCache(project.root);
  }, 120_000);
  afterAll(async () => {
    await keepCache(project.root);
    await rm(project.root, { recursive: true, force: true });
  });
  return project;
}
