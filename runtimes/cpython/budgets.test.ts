import { afterAll, beforeAll, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import type { RunResult } from '../seam/types.js';
import { type CpythonRuntime, createCpythonRuntime } from './runtime.js';
import { fixtureTools } from './test/fixtures.js';

/**
 * Budgets of a whole `python-process` run, not of one of its processes: memory of every process it starts
 * together (a memory cgroup per run), and bytes kept in its folder (a private tmpfs per run).
 */

/** Forks `children` processes that each fill `mb` MB and hold it; returns how many got there. */
function forkedHoarders(children: number, mb: number): string {
  return [
    'import os, signal',
    `children, size = ${children}, ${mb} * 1024 * 1024`,
    'ready_r, ready_w = os.pipe()',
    'for _ in range(children):',
    '    if os.fork() == 0:',
    '        os.close(ready_r)',
    '        hoard = bytearray(b"\\x01") * size',
    '        os.write(ready_w, b"+")',
    '        while True:',
    '            signal.pause()',
    'os.close(ready_w)',
    'held = 0',
    'while held < children:',
    '    got = os.read(ready_r, children)',
    '    if not got:',
    '        break',
    '    held += len(got)',
    'return held',
  ].join('\n');
}

(await Host.with('root', 'memory cgroup')).describe(
  'python-process: one memory budget for all the processes of a run',
  () => {
    let runtime: CpythonRuntime;
    const run = (program: string): Promise<RunResult> =>
      runtime.run({ program, bindings: fixtureTools(), timeoutMs: 60_000 });

    beforeAll(async () => {
      runtime = await createCpythonRuntime({ isolation: 'process', memoryMb: 256, timeoutMs: 60_000 });
    });
    afterAll(async () => {
      await runtime?.dispose();
    });

    it('ends a run whose eight forked children together hold more than memoryMb', async () => {
      // 8 × 160 MB: each child is within its own address-space cap, the tree is five times the budget.
      const result = await run(forkedHoarders(8, 160));
      expect(result.value).toBeUndefined();
      expect(result.error).toEqual({
        kind: 'worker-exit',
        message:
          "the run's processes together used more than its memory budget of 256 MB (memoryMb); the run was ended",
      });
    });

    it('lets a tree within the budget finish, and the next run starts with the whole budget', async () => {
      expect(await run(forkedHoarders(2, 60))).toEqual({ logs: [], value: 2 });
      expect(await run(forkedHoarders(3, 60))).toEqual({ logs: [], value: 3 });
    });
  },
);

/** Writes `files` files of `bytes` bytes each into the run's TMPDIR; returns the total written. */
function writeFiles(files: number, bytes: number, catchErrors = false): string {
  return [
    'import os, tempfile',
    'written = 0',
    `for i in range(${files}):`,
    ...(catchErrors ? ['    try:'] : ['    if True:']),
    '        with open(os.path.join(tempfile.gettempdir(), "f%d" % i), "wb") as f:',
    `            f.write(b"x" * ${bytes})`,
    `        written += ${bytes}`,
    ...(catchErrors ? ['    except OSError:', '        pass'] : []),
    'return written',
  ].join('\n');
}

const MB = 1024 * 1024;

(await Host.with('root', 'unshare')).describe(
  'python-process: a byte budget for what a run keeps in its folder',
  () => {
    let runtime: CpythonRuntime;
    const run = (program: string): Promise<RunResult> =>
      runtime.run({ program, bindings: fixtureTools(), timeoutMs: 60_000 });
    const overBudget = {
      kind: 'worker-exit',
      message: 'the run kept more than 8 MB in its folder (diskMb); the run was ended',
    };

    beforeAll(async () => {
      runtime = await createCpythonRuntime({ isolation: 'process', diskMb: 8, timeoutMs: 60_000 });
    });
    afterAll(async () => {
      await runtime?.dispose();
    });

    it('keeps exactly diskMb', async () => {
      expect(await run(writeFiles(1, 8 * MB))).toEqual({ logs: [], value: 8 * MB });
      expect(await run(writeFiles(8, MB))).toEqual({ logs: [], value: 8 * MB });
    });

    it('ends a run that keeps one byte more', async () => {
      const result = await run(writeFiles(1, 8 * MB + 1));
      expect(result.error).toEqual(overBudget);
    });

    it('ends a run that goes on writing after the folder is full, whatever it catches', async () => {
      const result = await run(writeFiles(100, MB, true));
      expect(result.error).toEqual(overBudget);
    });

    it('gives the next run an empty folder with the whole budget', async () => {
      await run(writeFiles(100, MB, true));
      expect(await run('import os\nreturn os.listdir(".")')).toEqual({ logs: [], value: [] });
      expect(await run(writeFiles(1, 8 * MB))).toEqual({ logs: [], value: 8 * MB });
    });
  },
);
