import { execFileSync } from 'node:child_process';

// Workers, cordis plugins and the CLI run from dist/: build once (`npm run build`, from a clean dist/) before
// any test file loads. `npm test` is `vitest run`, so this is the only build of a test run.
export default function setup(): void {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
}
