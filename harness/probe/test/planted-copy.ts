import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packageRoot } from '../../../runtimes/seam/package-root.js';
import { literalPattern } from '../../text/literal-pattern.js';

/** One change planted in the copy: every `from` in `file` (relative to the copy's root, e.g. `dist/…`) becomes `to`. */
export interface Plant {
  file: string;
  from: string | RegExp;
  to: string;
}

export interface PlantedCopy {
  root: string;
  dispose(): Promise<void>;
}

/**
 * A copy of this repository (its tracked files and the built dist/) in a fresh temporary folder, with
 * `plants` applied to the copy; node_modules is linked, and the working tree is never touched.
 */
export async function plantedCopy(plants: readonly Plant[]): Promise<PlantedCopy> {
  const source = packageRoot();
  const root = await mkdtemp(join(tmpdir(), 'concord-planted-'));
  const dispose = () => rm(root, { recursive: true, force: true });
  try {
    await fill(source, root, plants);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { root, dispose };
}

async function fill(source: string, root: string, plants: readonly Plant[]): Promise<void> {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: source, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of tracked) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await cp(join(source, file), join(root, file)).catch((error: NodeJS.ErrnoException) => {
      // A tracked file deleted in the working tree is simply not part of the copy.
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await cp(join(source, 'dist'), join(root, 'dist'), { recursive: true });
  await symlink(join(source, 'node_modules'), join(root, 'node_modules'));
  for (const plant of plants) {
    const path = join(root, plant.file);
    const text = await readFile(path, 'utf8');
    const pattern =
      typeof plant.from === 'string' ? new RegExp(literalPattern(plant.from), 'g') : new RegExp(plant.from.source, 'g');
    const count = [...text.matchAll(pattern)].length;
    if (count === 0) throw new Error(`plant: ${plant.file} no longer contains ${String(plant.from)}; update the plant`);
    await writeFile(path, text.replace(pattern, plant.to));
  }
}
