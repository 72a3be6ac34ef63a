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
  removeReaperLockOnExit();
  return importOptional('testcontainers', FEATURE, () => import('testcontainers'));
}

let reaperLockWatched = false;

/**
 * testcontainers takes a file lock in the temp dir on its first container start of a process (to look for a reaper,
 * even one that is disabled) and leaves the empty file there. When this process made it, it goes when the process
 * exits, unless another process holds the lock then (proper-lockfile's `.lock` folder beside it).
 */
function removeReaperLockOnExit(): void {
  if (reaperLockWatched) return;
  reaperLockWatched = true;
  const file = join(tmpdir(), `testcontainers-node-${userInfo().uid}.lock`);
  if (existsSync(file)) return;
  onHostExit(() => {
    if (!existsSync(`${file}.lock`)) rmSync(file, { force: true });
  });
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
