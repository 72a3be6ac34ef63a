import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { builtModule } from '../../../runtimes/seam/package-root.js';
import { exitWith } from '../exit.js';

/**
 * `concord provision`: in a project that installed concord, what `npm run provision` is in concord's own
 * checkout: a Docker engine and the CPython runtime images. It runs as a process of its own, which stops the
 * commands it started and removes what they were writing when it is interrupted.
 */
export function registerProvision(program: Command): void {
  program
    .command('provision')
    .description(
      'Install and start a Docker engine where possible (as root) and build the CPython runtime images python-container runs in; idempotent. --help lists its options',
    )
    .helpOption(false)
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .argument(
      '[options...]',
      'passed on: --dry-run, --only 3.9,3.13, --no-registry, --cache-key, --image-cache DIR, --help',
    )
    .action(async (args: string[]) => {
      const child = spawn(process.execPath, [builtModule('harness/provision/provision.ts'), ...args], {
        stdio: 'inherit',
      });
      const code = await new Promise<number>((resolve) =>
        child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))),
      );
      exitWith(code);
    });
}
