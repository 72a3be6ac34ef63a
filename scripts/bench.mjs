#!/usr/bin/env node
// npm run bench -- [suite ...]: runs the named suites (all of them when none is named).
// A suite is a file scripts/bench/<name>.mjs whose default export is `async (log) => void`;
// suites import the built code from dist/ (`npm run bench` builds first).
import { readdirSync } from 'node:fs';
import { basename } from 'node:path';

const suiteDir = new URL('./bench/', import.meta.url);
const suites = readdirSync(suiteDir)
  .filter((file) => file.endsWith('.mjs'))
  .map((file) => basename(file, '.mjs'))
  .sort();

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(
    `usage: npm run bench -- [suite ...]\n\nsuites: ${suites.join(', ')}\nWith no suite named, every suite runs.`,
  );
  process.exit(0);
}
const unknown = args.filter((name) => !suites.includes(name));
if (unknown.length > 0) {
  console.error(
    `bench: unknown suite ${unknown.map((name) => JSON.stringify(name)).join(', ')} (known: ${suites.join(', ')})`,
  );
  process.exit(2);
}
// Ctrl-C or a kill ends the run through process.exit, so what a suite removes on 'exit' (a baseline's build
// folder) is removed then too.
process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));
for (const name of args.length > 0 ? args : suites) {
  console.log(`== bench ${name}`);
  const { default: run } = await import(new URL(`${name}.mjs`, suiteDir).href);
  await run((line) => console.log(line));
}
