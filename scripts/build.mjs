#!/usr/bin/env node
// npm run build: compiles the sources into a clean dist/, then writes scenario.schema.json.
// Nothing is done when dist/ was built from exactly the inputs there are now (their sha256 is kept in
// dist/.inputs, written last, so a build that failed halfway is never taken for a whole one): the build that
// `npm ci` runs then serves the test run, the gate and the bench after it. --force builds anyway.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const stamp = join(dist, '.inputs');

const args = process.argv.slice(2);
if (args.includes('--help') || args.some((arg) => arg !== '--force')) {
  console.log(
    'usage: npm run build [-- --force]\nCompiles the sources into dist/ (skipped when dist/ holds a build of the same inputs) and writes scenario.schema.json.',
  );
  process.exit(args.includes('--help') ? 0 : 2);
}

/**
 * What the build reads: the sources tsc compiles (tests left out, as tsconfig.build.json does), its configs, the locked
 * compiler and this script.
 */
function inputsDigest() {
  const hash = createHash('sha256');
  const add = (file) =>
    hash
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test' && entry.name !== 'node_modules') walk(path);
      } else if (entry.isFile() && /\.(ts|json)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) add(path);
    }
  };
  for (const dir of ['contract', 'harness', 'codemode', 'runtimes', 'scenarios']) walk(join(root, dir));
  for (const file of [
    'tsconfig.json',
    'tsconfig.build.json',
    'package-lock.json',
    'scripts/build.mjs',
    'scripts/write-scenario-schema.mjs',
  ])
    add(join(root, file));
  return hash.digest('hex');
}

const digest = inputsDigest();
let built;
try {
  built = readFileSync(stamp, 'utf8').trim();
} catch {
  built = undefined;
}
if (built === digest && !args.includes('--force')) {
  console.log('build: dist/ is a build of these sources already (npm run build -- --force builds anyway)');
  process.exit(0);
}

const run = (command, commandArgs) => {
  const ran = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
  if (ran.status !== 0) process.exit(ran.status ?? 1);
};
// From a clean folder: a source deleted since the last build leaves nothing behind in dist/.
rmSync(dist, { recursive: true, force: true });
run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json']);
run(process.execPath, [join(root, 'scripts', 'write-scenario-schema.mjs')]);
writeFileSync(`${stamp}.${process.pid}`, `${digest}\n`);
renameSync(`${stamp}.${process.pid}`, stamp);
