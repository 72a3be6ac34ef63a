import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { sourceAsset } from '../../../runtimes/seam/package-root.js';
import { exitWith } from '../exit.js';

/**
 * `concord provision`: in a project that installed concord, what `npm run provision` is in concord's own
 * checkout (the same script, shipped in the package): a Docker engine and the CPython runtime images.
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
      const child = spawn(process.execPath, [sourceAsset('scripts/provision.mjs'), ...args], { stdio: 'inherit' });
      const code = await new Promise<number>((resolve) =>
        child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))),
      );
      exitWith(code);
    });
}
