import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packTarball, type Packed } from './test/pack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The tarball `npm pack` made of this run's build, once for every test file (read it, never write into its folder). */
    packed: Packed;
  }
}

// Workers, cordis plugins and the CLI run from dist/: build once (`npm run build`, from a clean dist/) before
// any test file loads. `npm test` is `vitest run`, so this is the only build of a test run, and none at all
// when dist/ is a build of the sources as they are (after `npm ci`, whose prepare step builds). The build is then
// packed once, as `npm pack` does for a release, for the tests that install concord into a project of their own.
// Each run also gets an empty folder where gates of tests that are not about a cold start leave their verdict
// cache for later ones to start from (harness/test/warm-cache.ts); both go with the run.
export default function setup(project: TestProject): () => void {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  const warmCacheDir = mkdtempSync(join(tmpdir(), 'concord-warm-cache-'));
  project.provide('warmCacheDir', warmCacheDir);
  const packedDir = mkdtempSync(join(tmpdir(), 'concord-packed-'));
  project.provide('packed', packTarball(packedDir));
  return () => {
    rmSync(warmCacheDir, { recursive: true, force: true });
    rmSync(packedDir, { recursive: true, force: true });
  };
}
