import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANNOTATIONS_PER_STEP, githubAnnotations, pairLine } from './annotations.js';
import type { PairResult } from './outcome.js';

const pair = (runtime: string, status: PairResult['status'], reason?: string): PairResult => ({
  scenario: 'orders',
  runtime,
  status,
  times: { assembly: 0, model: 0, runtime: 0, checks: 0 },
  verdicts:
    status === 'mismatch'
      ? [{ path: `orders/${runtime}/transcript.yml`, status: 'changed' } as PairResult['verdicts'][number]]
      : [],
  findings: [],
  ...(reason ? { reason } : {}),
});

describe('GitHub annotations of failing pairs', () => {
  it('points at the line declaring the runtime, else the name', () => {
    const flow = '# c\nname: orders\nruntimes: [typescript, python-container]\nscript: []\n';
    expect(pairLine(flow, 'python-container')).toBe(3);
    expect(pairLine(flow, 'python')).toBe(2);
    const block = 'name: orders\nruntimes:\n  - typescript\n  - pyodide\nscript: []\n';
    expect(pairLine(block, 'pyodide')).toBe(4);
    expect(pairLine('# only\nname: x\n', 'pyodide')).toBe(2);
    expect(pairLine('', 'pyodide')).toBe(1);
  });

  it('writes one ::error per failing pair at the file relative to the workspace, escaped, and none for the rest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'concord-annotations-'));
    try {
      const file = join(dir, 'scenarios', 'orders.yml');
      await mkdir(join(dir, 'scenarios'));
      await writeFile(file, 'name: orders\nruntimes: [typescript, python]\n');
      const lines = await githubAnnotations(
        [
          { pair: pair('typescript', 'pass'), file },
          { pair: pair('typescript', 'mismatch'), file },
          { pair: pair('python', 'failed', 'boom: 100%, really\nsecond line'), file },
          { pair: pair('pyodide', 'skipped', 'no'), file },
        ],
        dir,
      );
      expect(lines).toEqual([
        '::error file=scenarios/orders.yml,line=2,title=concord%3A orders × typescript mismatch::changed: snapshots/orders/typescript/transcript.yml',
        '::error file=scenarios/orders.yml,line=2,title=concord%3A orders × python failed::boom: 100%25, really',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  // GitHub shows 10 error annotations of a step and drops the others without a word.
  it.each([9, 10, 11, 30])(
    'with %i failing pairs, writes at most 10 annotations and names every pair that has none of its own',
    async (count) => {
      const dir = await mkdtemp(join(tmpdir(), 'concord-annotations-'));
      try {
        const file = join(dir, 'orders.yml');
        await writeFile(file, 'name: orders\n');
        const many = Array.from({ length: count }, (_, i) => ({
          pair: { ...pair(`runtime-${i + 1}`, 'mismatch'), scenario: `s${i + 1}` },
          file,
        }));
        const lines = await githubAnnotations([{ pair: pair('typescript', 'pass'), file }, ...many], dir);
        expect(ANNOTATIONS_PER_STEP).toBe(10);
        expect(lines).toHaveLength(Math.min(count, 10));
        const own = count <= 10 ? count : 9;
        expect(
          lines.slice(0, own).map((line) => /title=concord%3A (\S+) × (\S+) mismatch/.exec(line)?.slice(1).join(' × ')),
        ).toEqual(many.slice(0, own).map(({ pair: p }) => `${p.scenario} × ${p.runtime}`));
        if (count > 10) {
          const rest = many.slice(9).map(({ pair: p }) => `${p.scenario} × ${p.runtime} mismatch`);
          expect(lines[9]).toBe(
            `::error title=concord%3A ${count - 9} more failing pair(s)::${rest.join('%0A')}%0AGitHub shows 10 annotations of a step; the gate's log and the step summary list every failing pair.`,
          );
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
