import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import { sourceAsset } from '../runtimes/seam/package-root.js';
import DurationsReporter, { DURATIONS_VARIABLE } from '../test/durations-reporter.js';
import { orderLongestFirst, readDurations } from '../test/longest-first.js';

const scratch: string[] = [];
afterAll(() => Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('the test files, longest first', () => {
  it('orders by seconds, longest first, unknown files before all, ties in their order', () => {
    const seconds: Record<string, number> = { a: 3, b: 10, d: 3, e: 0.5 };
    const order = orderLongestFirst(['a', 'b', 'c', 'd', 'e'], (file) => seconds[file] ?? Number.POSITIVE_INFINITY);
    expect(order).toEqual(['c', 'b', 'a', 'd', 'e']);
  });

  it('has committed durations naming only test files that exist', async () => {
    const durations = JSON.parse(await readFile(sourceAsset('test/durations.json'), 'utf8')) as Record<string, number>;
    const files = Object.keys(durations);
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      expect(
        file,
        `a stale entry: renew the durations with ${DURATIONS_VARIABLE}=test/durations.json CI=true npm test`,
      ).toMatch(/\.test\.ts$/);
      expect(file, 'a path from another checkout').not.toMatch(/^\.\.|^\//);
      expect(existsSync(sourceAsset(file)), file).toBe(true);
      expect(durations[file]).toBeGreaterThanOrEqual(0);
    }
  });

  it("has a file whose work is all in beforeAll as long as it takes (vitest's own duration, hooks included)", () => {
    // planted.e2e.test.ts runs its two gates in beforeAll and its tests only read them: measured without its
    // hooks it would look instant, be ordered last and run alone at the end of the run.
    expect(readDurations()['harness/probe/planted.e2e.test.ts']).toBeGreaterThan(5);
  });

  it('writes the durations of a passed run, by path in tenths of a second, keeping files it did not reach and dropping gone ones', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'concord-durations-'));
    scratch.push(dir);
    await mkdir(join(dir, 'harness'), { recursive: true });
    for (const file of ['harness/z.test.ts', 'harness/kept.test.ts', 'a.test.ts']) await writeFile(join(dir, file), '');
    const out = join(dir, 'durations.json');
    await writeFile(
      out,
      JSON.stringify({ 'harness/kept.test.ts': 7, 'harness/gone.test.ts': 2, 'harness/z.test.ts': 1 }),
    );
    const module = (file: string, ms: number) =>
      ({ moduleId: join(dir, file), diagnostic: () => ({ duration: ms }) }) as unknown as TestModule;
    const reporter = new DurationsReporter();
    reporter.onInit({ config: { root: dir } });
    const run = (reason: 'passed' | 'failed' | 'interrupted') =>
      reporter.onTestRunEnd([module('harness/z.test.ts', 3_260), module('a.test.ts', 40)], [], reason);
    const before = process.env[DURATIONS_VARIABLE];
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      delete process.env[DURATIONS_VARIABLE];
      run('passed');
      expect(JSON.parse(await readFile(out, 'utf8'))).toEqual({
        'harness/kept.test.ts': 7,
        'harness/gone.test.ts': 2,
        'harness/z.test.ts': 1,
      });

      process.env[DURATIONS_VARIABLE] = out;
      for (const reason of ['failed', 'interrupted'] as const) run(reason);
      expect(JSON.parse(await readFile(out, 'utf8'))).toEqual({
        'harness/kept.test.ts': 7,
        'harness/gone.test.ts': 2,
        'harness/z.test.ts': 1,
      });
      expect(error.mock.calls.map(([line]) => String(line))).toEqual([
        `${DURATIONS_VARIABLE}: ${out} left as it was: the run did not pass (failed)`,
        `${DURATIONS_VARIABLE}: ${out} left as it was: the run did not pass (interrupted)`,
      ]);

      run('passed');
      expect(await readFile(out, 'utf8')).toBe(
        '{\n  "a.test.ts": 0,\n  "harness/kept.test.ts": 7,\n  "harness/z.test.ts": 3.3\n}\n',
      );
      expect((await readdir(dir)).sort()).toEqual(['a.test.ts', 'durations.json', 'harness']);
    } finally {
      if (before === undefined) delete process.env[DURATIONS_VARIABLE];
      else process.env[DURATIONS_VARIABLE] = before;
      log.mockRestore();
      error.mockRestore();
    }
  });
});
