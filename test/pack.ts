import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../runtimes/seam/package-root.js';

export interface Packed {
  /** The `.tgz` `npm pack` wrote. */
  tarball: string;
  /** The paths inside the package (`dist/harness/cli/main.js`, …). */
  files: string[];
}

/**
 * Packs this checkout into `destination` as `npm pack` does for a release; dist/ must be built (it is not built again).
 */
export function packTarball(destination: string): Packed {
  const pack = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], {
    cwd: packageRoot(),
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(destination, info!.filename), files: info!.files.map((f) => f.path) };
}
