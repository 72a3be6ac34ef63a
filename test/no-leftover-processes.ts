import { afterAll, expect } from 'vitest';
import { liveChildProcesses } from './child-processes.js';

// Test files share a worker process (isolate: false), so a file that leaves an interpreter's checker, a worker
// or a server running hands it to the next file, whose counts of processes then fail far from the cause. Every
// file must stop what it started: this fails the file that did not, naming the processes it left.

/**
 * What this worker still runs, except tsx's esbuild service: loading a TypeScript plugin starts it once for
 * the process, and it ends with the process, as it does with the CLI.
 */
const leftOver = (): string[] => liveChildProcesses().filter((line) => !/\/esbuild --service=/.test(line)).map((line) => line.slice(0, 160));

afterAll(async () => {
  // A disposed child may still be on its way out: give it a moment before calling it left behind.
  let left = leftOver();
  for (let waited = 0; waited < 3000 && left.length > 0; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = leftOver();
  }
  expect(left, `${expect.getState().testPath} left processes running`).toEqual([]);
});
