import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { processCpuSeconds } from './proc-stat.mjs';

// Where the suite's CPU goes, when CONCORD_TEST_CPU_LOG names a file: one line per test file with its wall
// seconds, the CPU seconds of its worker (user, system) and of the processes it started and waited for (user,
// system; a child's own children count once their parent waited for them). A worker runs one file at a time,
// so the differences around a file are that file's. Linux only (/proc); elsewhere nothing is written.

const log = process.env.CONCORD_TEST_CPU_LOG;

/** utime, stime, cutime, cstime of this process, in seconds. */
function cpuSeconds(): number[] | undefined {
  const cpu = processCpuSeconds();
  return cpu && [cpu.user, cpu.system, cpu.childrenUser, cpu.childrenSystem];
}

if (log !== undefined && log !== '') {
  let start: number[] | undefined;
  let started = 0;
  beforeAll(() => {
    start = cpuSeconds();
    started = performance.now();
  });
  afterAll(() => {
    const end = cpuSeconds();
    if (start === undefined || end === undefined) return;
    const spent = end.map((value, i) => (value - start![i]!).toFixed(2));
    appendFileSync(
      log,
      `${expect.getState().testPath}\t${((performance.now() - started) / 1000).toFixed(1)}\t${spent.join('\t')}\n`,
    );
  });
}
