import './no-reaper.js';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { onHostExit } from './host-exit.js';
import { importOptional } from './optional-package.js';

const FEATURE = 'the CPython container runtime';

/**
 * testcontainers, loaded on the first use of a container (the CPython container isolation, container
 * interpreters). It is an optional peer dependency: without it, that use fails with the install command.
 */
export function testcontainers(): Promise<typeof import('testcontainers')> {
  watchReaperLock();
  return importOptional('testcontainers', FEATURE, () => import('testcontainers'));
}

/** testcontainers' reaper lock file in the temp dir, and whether this process made it. */
let reaperLock: { file: string; ours: boolean } | undefined;

/**
 * testcontainers takes a file lock in the temp dir on its first container start of a process (to look for a reaper,
 * even one that is disabled) and leaves the empty file there. When this process made it, it goes once that start is
 * done (`releaseReaperLock`), or else when the process exits, unless another process holds the lock then
 * (proper-lockfile's `.lock` folder beside it).
 */
function watchReaperLock(): void {
  if (reaperLock !== undefined) return;
  const file = join(tmpdir(), `testcontainers-node-${userInfo().uid}.lock`);
  reaperLock = { file, ours: !existsSync(file) };
  if (reaperLock.ours) onHostExit(releaseReaperLock);
}

/**
 * Removes the reaper lock file this process made, unless another process holds the lock now: called after a
 * container started, when this process needs the file no more. A process a test runner ends without its exit hooks
 * then leaves nothing behind.
 */
export function releaseReaperLock(): void {
  if (reaperLock?.ours !== true || existsSync(`${reaperLock.file}.lock`)) return;
  rmSync(reaperLock.file, { force: true });
  reaperLock.ours = false;
}

/**
 * testcontainers' way to the Docker engine (`getContainerRuntimeClient`: DOCKER_HOST, its properties file, the
 * usual sockets), without the container classes: about half of the package's load (0.2 CPU-s here), which a
 * gate with Python pairs would pay only to ask which runtime images the engine holds. A testcontainers release
 * that moved that module is loaded whole instead.
 */
export function containerRuntimeModule(): Promise<Pick<typeof import('testcontainers'), 'getContainerRuntimeClient'>> {
  return importOptional('testcontainers', FEATURE, () =>
    import('testcontainers/build/container-runtime/index.js').catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return import('testcontainers');
      throw error;
    }),
  );
}
