import { execFileSync } from 'node:child_process';

// Workers, cordis plugins and the CLI run from dist/: build once before any test file loads.
export default function setup(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
