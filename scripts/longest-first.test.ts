import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { orderLongestFirst } from '../test/longest-first.js';
import { sourceAsset } from '../runtimes/seam/package-root.js';

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
      expect(file, 'a stale entry: run scripts/test-durations.mjs on a fresh full run').toMatch(/\.test\.ts$/);
      expect(file, 'a path from another checkout').not.toMatch(/^\.\.|^\//);
      expect(existsSync(sourceAsset(file)), file).toBe(true);
      expect(durations[file]).toBeGreaterThanOrEqual(0);
    }
  });

  const script = (...args: string[]) => spawnSync(process.execPath, [sourceAsset('scripts/test-durations.mjs'), ...args], { encoding: 'utf8' });

  it('writes the durations of a JSON report, by path, in tenths of a second', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'concord-durations-'));
    scratch.push(dir);
    const report = join(dir, 'report.json');
    const root = sourceAsset('.');
    await writeFile(
      report,
      JSON.stringify({
        testResults: [
          { name: join(root, 'harness/z.test.ts'), startTime: 1_000, endTime: 4_260 },
          { name: join(root, 'codemode/a.test.ts'), startTime: 0, endTime: 40 },
        ],
      }),
    );
    const out = join(dir, 'durations.json');
    const run = script(report, out);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(await readFile(out, 'utf8')).toBe('{\n  "codemode/a.test.ts": 0,\n  "harness/z.test.ts": 3.3\n}\n');
  });

  it('refuses a file that is not a report with exit 2, writing nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'concord-durations-'));
    scratch.push(dir);
    for (const [name, text, says] of [
      ['broken.json', '{"testResults": [', 'not a vitest JSON report'],
      ['empty.json', '{"testResults": []}', 'holds no testResults'],
      ['elsewhere.json', JSON.stringify({ testResults: [{ name: join(sourceAsset('.'), '../other/a.test.ts'), startTime: 0, endTime: 1 }] }), 'outside'],
    ] as const) {
      await writeFile(join(dir, name), text);
      const run = script(join(dir, name), join(dir, 'durations.json'));
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(says);
    }
    expect((await readdir(dir)).sort()).toEqual(['broken.json', 'elsewhere.json', 'empty.json']);
    expect(script().status).toBe(2);
  });
});
