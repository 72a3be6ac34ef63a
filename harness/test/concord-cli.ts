import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { sourceAsset } from '../../runtimes/seam/package-root.js';

/**
 * `concord ARGS` from this checkout's bin (or the one `bin()` names, an installed tarball's), run in the folder
 * `cwd()` names when called (tests create both in a setup hook), as a user runs it: outside CI unless `env` says
 * so, without colour; `env` goes on top.
 */
export function concordIn(
  cwd: () => string,
  timeoutMs: number,
  bin: () => string = () => sourceAsset('bin/concord.mjs'),
): (env: Record<string, string>, ...args: string[]) => SpawnSyncReturns<string> {
  return (env, ...args) =>
    spawnSync(process.execPath, [bin(), ...args], {
      cwd: cwd(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      env: { ...process.env, CI: '', NO_COLOR: '1', ...env },
    });
}
