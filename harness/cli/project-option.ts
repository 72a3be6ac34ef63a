import { Option } from 'commander';
import { openProject, type Project } from '../project/root.js';
import { failAndExit } from './fail.js';

/** `--root DIR`, the same on every command that reads or writes a project. */
export function rootOption(): Option {
  return new Option(
    '--root <dir>',
    'the project root (default: the nearest folder above holding concord.config.yml, else the working directory)',
  );
}

/** Opens the project named by `--root` (or found from the working directory); bad input exits 2 with one message. */
export async function projectOrExit(command: string, flags: { root?: string }): Promise<Project> {
  try {
    return await openProject(flags.root === undefined ? {} : { root: flags.root });
  } catch (error) {
    failAndExit(command, error);
  }
}
