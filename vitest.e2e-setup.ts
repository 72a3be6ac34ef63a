import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { ownedTempDir } from './runtimes/seam/owned-temp-dir.js';
import { type Packed, packTarball } from './test/pack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The tarball `npm pack` made of this run's build, once for every test file (read it, never write into its folder). */
    packed: Packed;
  }
}

// The end-to-end tier installs concord as a user does: the build (vitest.global-setup.ts made it) is packed once, as
// `npm pack` does for a release, for the tests that install concord into a project of their own.
export default function setup(project: TestProject): () => void {
  const packedDir = ownedTempDir('concord-packed');
  project.provide('packed', packTarball(packedDir));
  return () => rmSync(packedDir, { recursive: true, force: true });
}
