import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { ownedTempDir } from './runtimes/seam/owned-temp-dir.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder where gates not about a cold start leave their verdict cache for later ones (harness/test/warm-cache.ts). */
    warmCacheDir: string;
  }
}

// Workers, cordis plugins and the CLI run from dist/: build once (`npm run build`, from a clean dist/) before any test
// file loads. This is the only build of a test run, and none at all when dist/ is a build of the sources as they are
// (after `npm run build`). Each run also gets an empty folder where gates of tests that are not
// about a cold start leave their verdict cache for later ones to start from; it goes with the run, and a run that was
// killed before its teardown leaves it to the next run, which removes it (it is named after its pid).
export default function setup(project: TestProject): () => void {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  const warmCacheDir = ownedTempDir('concord-warm-cache');
  project.provide('warmCacheDir', warmCacheDir);
  return () => rmSync(warmCacheDir, { recursive: true, force: true });
}
