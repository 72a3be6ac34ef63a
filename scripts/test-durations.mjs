#!/usr/bin/env node
// Writes test/durations.json (seconds per test file) from the JSON report of a full run, for test/longest-first.ts:
//   npx vitest run --reporter=default --reporter=json --outputFile.json=/tmp/report.json
//   node scripts/test-durations.mjs /tmp/report.json [OUT (default test/durations.json)]
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const reportFile = process.argv[2];
if (!reportFile || process.argv.length > 4) {
  console.error('usage: node scripts/test-durations.mjs REPORT.json [OUT] (REPORT: the --reporter=json output of a full vitest run)');
  process.exit(2);
}
const root = fileURLToPath(new URL('..', import.meta.url));
let report;
try {
  report = JSON.parse(readFileSync(reportFile, 'utf8'));
} catch (error) {
  console.error(`${reportFile}: not a vitest JSON report (${error.message})`);
  process.exit(2);
}
if (!Array.isArray(report.testResults) || report.testResults.length === 0) {
  console.error(`${reportFile}: holds no testResults; write it with --reporter=json --outputFile.json=FILE`);
  process.exit(2);
}
// A report written by another checkout would name its files by paths that climb out of this one.
const outside = report.testResults.map((file) => file.name).filter((name) => relative(root, name).startsWith('..') || isAbsolute(relative(root, name)));
if (outside.length > 0) {
  console.error(`${reportFile}: names ${outside.length} test files outside ${root} (such as ${outside[0]}); run this script from the checkout that ran the tests`);
  process.exit(2);
}
const durations = Object.fromEntries(
  report.testResults
    .map((file) => [relative(root, file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
);
const target = process.argv[3] ?? fileURLToPath(new URL('../test/durations.json', import.meta.url));
// Written whole or not at all: the sequencer never reads half a file.
const temporary = `${target}.${process.pid}`;
writeFileSync(temporary, `${JSON.stringify(durations, null, 2)}\n`);
renameSync(temporary, target);
console.log(`${relative(process.cwd(), target)}: ${Object.keys(durations).length} files, ${Math.round(Object.values(durations).reduce((a, b) => a + b, 0))} s in all`);
