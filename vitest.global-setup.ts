import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

// Workers, cordis plugins and the CLI run from dist/: build once (`npm run build`, from a clean dist/) before
// any test file loads. `npm test` is `vitest run`, so this is the only build of a test run.
// Each run also gets an empty folder where gates of tests that are not about a cold start leave their verdict
// cache for later ones to start from (harness/test/warm-cache.ts); it goes with the run.
export default function setup(project: TestProject): () => void {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  const warmCacheDir = mkdtempSync(join(tmpdir(), 'concord-warm-cache-'));
  project.provide('warmCacheDir', warmCacheDir);
  return () => rmSync(warmCacheDir, { recursive: true, force: true });
}
