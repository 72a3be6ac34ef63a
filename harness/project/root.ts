import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RootError } from '../user-error.js';
import { loadProjectConfig, type ProjectConfig } from './config.js';

/** The file that marks a folder as a concord project root. Optional: without one the working directory is the root. */
export const CONFIG_FILE = 'concord.config.yml';

/** The user's project: where scenarios are read and where snapshots and concord's own files go. */
export interface Project {
  root: string;
  /** The `concord.config.yml` that was read, if any. */
  configFile?: string;
  config: ProjectConfig;
  scenariosDir: string;
  snapshotsDir: string;
  /** `.concord/`: pending proposals, reports, JUnit files. */
  concordDir: string;
  pendingRoot: string;
}

export interface RootOptions {
  /** `--root`: taken as it is, never searched above. */
  root?: string;
  /** Where the search for `concord.config.yml` starts (default: the working directory). */
  cwd?: string;
}

/** The project root: `--root`, else the nearest ancestor holding `concord.config.yml`, else the working directory. */
export function findProjectRoot(options: RootOptions = {}): string {
  const cwd = resolve(options.cwd ?? process.cwd());
  if (options.root !== undefined) {
    const root = resolve(cwd, options.root);
    if (!existsSync(root) || !statSync(root).isDirectory())
      throw new RootError(
        `--root ${options.root}: ${root} is not a folder`,
        'name the folder that holds scenarios/ (or concord.config.yml)',
      );
    return root;
  }
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, CONFIG_FILE))) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}

/** Finds the root and reads its `concord.config.yml` (a malformed one is an InputError with its place). */
export async function openProject(options: RootOptions = {}): Promise<Project> {
  const root = findProjectRoot(options);
  const configFile = join(root, CONFIG_FILE);
  const present = existsSync(configFile);
  return projectAt(root, present ? await loadProjectConfig(configFile) : {}, present ? configFile : undefined);
}

/** The project at `root` with `config` as its settings (`openProject` reads them from its `concord.config.yml`). */
export function projectAt(root: string, config: ProjectConfig = {}, configFile?: string): Project {
  return {
    root,
    ...(configFile !== undefined ? { configFile } : {}),
    config,
    scenariosDir: join(root, 'scenarios'),
    snapshotsDir: join(root, 'snapshots'),
    concordDir: join(root, '.concord'),
    pendingRoot: join(root, '.concord', 'pending'),
  };
}
