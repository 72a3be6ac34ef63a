import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../runtimes/seam/package-root.js';

/** The version of the concord package that runs: `concord --version`, the results file and the verdict cache's key. */
export function concordVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
