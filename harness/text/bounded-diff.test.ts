import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../report/html.js';
import type { PairResult } from '../report/outcome.js';
import { snapshotDiff } from '../snapshot/store.js';
import { MAX_LINE_EDITS, renderDiff, textDiff } from './diff.js';

const labels = { before: 'committed', after: 'proposed' };

/** Shared first and last lines around `changed` lines that differ every other line (two edits each). */
function interleaved(changed: number): [string, string] {
  const middle = Array.from({ length: changed * 2 }, (_, i) => i);
  const line = (i: number, side: string) => (i % 2 === 0 ? `same ${i}` : `${side} ${i}`);
  return [
    ['head', ...middle.map((i) => line(i, 'old')), 'tail', ''].join('\n'),
    ['head', ...middle.map((i) => line(i, 'new')), 'tail', ''].join('\n'),
  ];
}

describe('a diff of a value changed throughout', () => {
  it('searches for the fewest edits up to MAX_LINE_EDITS, and past it shows the changed middle whole', () => {
    // At the bound: every changed line found between the lines kept.
    const [a, b] = interleaved(MAX_LINE_EDITS / 2);
    const searched = textDiff(labels, a, b, { context: 0 });
    expect(searched.hunks.length).toBe(MAX_LINE_EDITS / 2);
    // One edit past it: one hunk, the shared start and end kept as context.
    const [c, d] = interleaved(MAX_LINE_EDITS / 2 + 1);
    const rewritten = textDiff(labels, c, d);
    expect(rewritten.hunks).toHaveLength(1);
    const [hunk] = rewritten.hunks;
    expect(hunk!.lines[0]).toBe(' head');
    expect(hunk!.lines.at(-1)).toBe(' tail');
    expect(hunk!.lines.filter((line) => line.startsWith(' '))).toEqual([' head', ' same 0', ' tail']);
    // Either way the hunks are a patch that turns one text into the other.
    for (const [before, after, diff] of [
      [a, b, searched],
      [c, d, rewritten],
    ] as const)
      expect(
        applyPatch(before, { oldFileName: 'a', newFileName: 'b', oldHeader: '', newHeader: '', hunks: diff.hunks }),
      ).toBe(after);
  });

  it('is linear past the bound: 50,000 changed lines diff and render (the times are in npm run bench -- diff)', () => {
    const n = 50_000;
    const a = Array.from({ length: n }, (_, i) => `line ${i} alpha`).join('\n');
    const b = Array.from({ length: n }, (_, i) => `line ${i} beta`).join('\n');
    const rendered = renderDiff(textDiff(labels, a, b), false);
    expect(rendered.split('\n').filter((line) => line.startsWith('-line'))).toHaveLength(n);
  });

  it('is shown in report.html within a bounded size, with how many lines are left out', () => {
    const n = 20_000;
    const before = Array.from({ length: n }, (_, i) => `line ${i} ${'a'.repeat(5_000)}`).join('\n');
    const after = before.replaceAll(' a', ' b');
    const pair: PairResult = {
      scenario: 'big',
      runtime: 'typescript',
      status: 'mismatch',
      times: { assembly: 1, model: 1, runtime: 1, checks: 1 },
      findings: [],
      verdicts: [
        {
          path: 'big/typescript/transcript.yaml',
          status: 'changed',
          proposed: after,
          diff: snapshotDiff('big/typescript/transcript.yaml', before, after),
        },
        { path: 'big/typescript/new.json', status: 'new', proposed: 'x'.repeat(10_000_000) },
      ],
    };
    const html = renderHtmlReport({ runId: 'r', pairs: [pair], matrix: [] });
    expect(html.length).toBeLessThan(12_000_000);
    expect(html).toContain(`${(2 * n - 2_000).toLocaleString('en-US')} more line(s) of this diff`);
    expect(html).toContain('characters]…');
    expect(html).toMatch(/the whole value is 10,000,000 bytes, sha256 [0-9a-f]{64}/);
  });
});
