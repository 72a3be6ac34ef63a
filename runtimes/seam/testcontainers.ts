import './no-reaper.js';
import { importOptional } from './optional-package.js';

/**
 * testcontainers, loaded on the first use of a container (the CPython container isolation, container
 * interpreters). It is an optional peer dependency: without it, that use fails with the install command.
 */
export function testcontainers(): Promise<typeof import('testcontainers')> {
  return importOptional('testcontainers', 'the CPython container runtime', () => import('testcontainers'));
}
