import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { ownedTempDir } from './runtimes/seam/owned-temp-dir.js';
import { type Packed, packTarball } from './test/pack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The tarball `npm pack` made of this run's build, once for every test file (read it, never write into its folder).
     */
    packed: Packed;
  }
}

// Workers, cordis plugins and the CLI run from dist/: build once (`npm run build`, from a clean dist/) before
// any test file loads. `npm test` is `vitest run`, so this is the only build of a test run, and none at all
// when dist/ is a build of the sources as they are (after `npm ci`, whose prepare step builds). The build is then
// packed once, as `npm pack` does for a release, for the tests that install concord into a project of their own.
// Each run also gets an empty folder where gates of tests that are not about a cold start leave their verdict
// cache for later ones to start from (harness/test/warm-cache.ts); both go with the run, and a run that was
// killed before its teardown leaves them to the next run, which removes them (they are named after its pid).
export default function setup(project: TestProject): () => void {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  const warmCacheDir = ownedTempDir('concord-warm-cache');
  project.provide('warmCacheDir', warmCacheDir);
  const packedDir = ownedTempDir('concord-packed');
  project.provide('packed', packTarball(packedDir));
  return () => {
    rmSync(warmCacheDir, { recursive: true, force: true });
    rmSync(packedDir, { recursive: true, force: true });
  };
}
