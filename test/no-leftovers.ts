import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, expect } from 'vitest';
import { liveChildProcesses } from './child-processes.js';

// Test files share a worker process (isolate: false), and vitest ends its workers without their exit hooks. A
// file that leaves an interpreter's checker, a worker or a server running hands it to the next file, whose
// counts of processes then fail far from the cause; a temp folder it leaves (what concord owns there is named
// `concord-<kind>-<pid>-…` and removed when released, or when its process exits) is never removed. Every file
// must stop and release what it started: this fails the file that did not, naming what it left.
//
// Each thing left fails one file (the one that left it, or the next when work still running after its file
// ended made it), not every later file of the worker, so the tail of a run's output still shows the cause.

/** What earlier files of this worker were already failed for (setup files run again for each file). */
const blamed = ((globalThis as Record<symbol, Set<string> | undefined>)[Symbol.for('concord.test.leftovers')] ??=
  new Set());

/** How a process left (a line of `liveChildProcesses()`) is kept in `blamed`. */
const processKey = (line: string): string => `pid ${line.split(/\s+/, 1)[0]!}`;

/**
 * The processes this worker still runs that no earlier file was failed for, except tsx's esbuild service:
 * loading a TypeScript plugin starts it once for the process, and it ends with the process, as with the CLI.
 */
const processesLeft = (): string[] =>
  liveChildProcesses()
    .filter((line) => !/\/esbuild --service=/.test(line) && !blamed.has(processKey(line)))
    .map((line) => line.slice(0, 160));

/** This worker's temp folders that no earlier file was failed for. */
const foldersLeft = (): string[] => {
  const mine = new RegExp(`^concord-[a-z-]+-${process.pid}-`);
  return readdirSync(tmpdir()).filter((name) => mine.test(name) && !blamed.has(name));
};

afterAll(async () => {
  // A disposed child may still be on its way out: give it a moment before calling it left behind.
  let processes = processesLeft();
  for (let waited = 0; waited < 3000 && processes.length > 0; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    processes = processesLeft();
  }
  const folders = foldersLeft();
  for (const line of processes) blamed.add(processKey(line));
  for (const name of folders) blamed.add(name);
  expect(
    { processes, folders },
    `${expect.getState().testPath} left processes running or temp folders of this worker`,
  ).toEqual({ processes: [], folders: [] });
});
