import { describe, expect, it } from 'vitest';
import { type FileVerdict, snapshotDiff } from '../snapshot/store.js';
import { renderDiff } from '../text/diff.js';
import { MAX_LINE_CHARS } from '../text/short-line.js';
import { githubAnnotations } from './annotations.js';
import type { PairResult } from './outcome.js';
import { PROGRESS_FILES, progressLine, REASON_LINES } from './progress.js';
import { DIFF_LINES, SUMMARY_CHANGES, stepSummary } from './step-summary.js';
import { TERMINAL_CHANGES, TERMINAL_DIFF_LINES, verdictLines } from './summary.js';

/**
 * Every cap that keeps a failing gate's verdict short, at its edges: one below, at and one above the cap,
 * what is shown whole, what is cut, and the pointer to the report that says how much was left out.
 */
const REPORT = '.concord/report.html';
const times = { assembly: 1, model: 1, runtime: 1, checks: 1 };

/** A changed SDK file of `scenario` whose diff, as rendered, is `lines` lines long (each added line names `tag`). */
function changeOf(scenario: string, lines: number, tag = scenario): FileVerdict {
  const path = `${scenario}/typescript/tools-sdk.ts`;
  const header = renderDiff(snapshotDiff(path, 'a\n', 'a\n'.concat('x\n')), false).split('\n').length - 1;
  const added = Array.from({ length: lines - header }, (_, i) => `${tag} line ${i + 1}\n`).join('');
  const verdict: FileVerdict = {
    path,
    status: 'changed',
    proposed: `a\n${added}`,
    diff: snapshotDiff(path, 'a\n', `a\n${added}`),
  };
  expect(renderDiff(verdict.diff!, false).split('\n')).toHaveLength(lines);
  return verdict;
}

const mismatch = (scenario: string, verdicts: FileVerdict[]): PairResult => ({
  scenario,
  runtime: 'typescript',
  status: 'mismatch',
  times,
  findings: [],
  verdicts,
});
const failed = (scenario: string, reason: string): PairResult => ({
  scenario,
  runtime: 'typescript',
  status: 'failed',
  times,
  findings: [],
  verdicts: [],
  reason,
});
const text = (lines: readonly string[]) => lines.join('\n');

describe('the terminal verdict', () => {
  it.each([TERMINAL_DIFF_LINES - 1, TERMINAL_DIFF_LINES, TERMINAL_DIFF_LINES + 1])(
    'shows a distinct diff of %i lines up to the cap, pointing to the report for the rest',
    (length) => {
      const lines = verdictLines([mismatch('checkout', [changeOf('checkout', length)])], REPORT, false);
      const below = lines.slice(lines.indexOf('[change 1] changed: snapshots/checkout/typescript/tools-sdk.ts') + 1);
      if (length <= TERMINAL_DIFF_LINES) {
        expect(below).toHaveLength(length);
        expect(below.at(-1)).toMatch(/^\+checkout line \d+$/);
      } else {
        expect(below).toHaveLength(TERMINAL_DIFF_LINES + 1);
        expect(below.at(-2)).toMatch(/^\+checkout line \d+$/);
        expect(below.at(-1)).toBe(`… 1 more line(s) of this change in ${REPORT}`);
      }
    },
  );

  it.each([REASON_LINES - 1, REASON_LINES, REASON_LINES + 1])(
    "shows %i lines of a failing pair's reason up to the cap, pointing to the report for the rest",
    (length) => {
      const reason = Array.from({ length }, (_, i) => `reason line ${i + 1}`).join('\n');
      const lines = verdictLines([failed('checkout', reason)], REPORT, false);
      const shown = lines.filter((line) => line.startsWith('      reason line '));
      expect(shown).toHaveLength(Math.min(length, REASON_LINES));
      expect(lines.at(-1)).toBe(
        length > REASON_LINES ? `      … 1 more line(s) in ${REPORT}` : `      reason line ${length}`,
      );
    },
  );

  it.each([TERMINAL_CHANGES - 1, TERMINAL_CHANGES, TERMINAL_CHANGES + 1])(
    'shows the diffs of %i distinct changes up to the cap, counting the rest',
    (count) => {
      const scenarios = Array.from({ length: count }, (_, i) => `scenario-${i + 1}`);
      const pairs = scenarios.map((s) => mismatch(s, [changeOf(s, 6)]));
      const lines = verdictLines(pairs, REPORT, false);
      expect(lines).toContain(`${count} distinct change(s) in ${count} file(s):`);
      // Every failing pair still names its change, shown or not.
      for (const [i, s] of scenarios.entries())
        expect(lines).toContain(`  ✗ ${s} × typescript: mismatch — tools-sdk.ts changed [change ${i + 1}]`);
      const headings = lines.filter((line) => line.startsWith('[change '));
      expect(headings).toHaveLength(Math.min(count, TERMINAL_CHANGES));
      expect(lines.filter((line) => line.startsWith('+scenario-'))).toHaveLength(Math.min(count, TERMINAL_CHANGES) * 2);
      if (count > TERMINAL_CHANGES)
        expect(lines.at(-1)).toBe(`… 1 more distinct change(s) in 1 file(s) (change ${count}) in ${REPORT}`);
      else expect(text(lines)).not.toContain('more distinct change(s)');
    },
  );

  it('counts every change past the cap by its files and numbers', () => {
    const pairs = Array.from({ length: TERMINAL_CHANGES + 3 }, (_, i) =>
      mismatch(`s${i + 1}`, [changeOf(`s${i + 1}`, 5)]),
    );
    const extra = mismatch('s1', [changeOf('s1', 5, `s${TERMINAL_CHANGES + 3}`)]);
    extra.runtime = 'python';
    const lines = verdictLines([...pairs, extra], REPORT, false);
    const numbers = [TERMINAL_CHANGES + 1, TERMINAL_CHANGES + 2, TERMINAL_CHANGES + 3].join(', ');
    expect(lines.at(-1)).toBe(`… 3 more distinct change(s) in 4 file(s) (changes ${numbers}) in ${REPORT}`);
  });
});

describe("a pair's progress line", () => {
  it.each([REASON_LINES - 1, REASON_LINES, REASON_LINES + 1])(
    'shows %i lines of its reason up to the cap, counting the rest',
    (length) => {
      const reason = Array.from({ length }, (_, i) => `reason line ${i + 1}`).join('\n');
      const lines = progressLine(failed('checkout', reason), false).split('\n').slice(1);
      expect(lines.filter((line) => line.startsWith('    reason line '))).toHaveLength(Math.min(length, REASON_LINES));
      expect(lines.at(-1)).toBe(
        length > REASON_LINES ? '    … 1 more line(s) of this reason in the report' : `    reason line ${length}`,
      );
    },
  );

  it.each([PROGRESS_FILES - 1, PROGRESS_FILES, PROGRESS_FILES + 1])(
    'names %i changed files up to the cap, counting the rest',
    (count) => {
      const verdicts = Array.from({ length: count }, (_, i) => changeOf(`scenario-${i + 1}`, 5));
      const lines = progressLine(mismatch('checkout', verdicts), false).split('\n').slice(1);
      expect(lines.filter((line) => line.startsWith('    changed: '))).toHaveLength(Math.min(count, PROGRESS_FILES));
      expect(lines.at(-1)).toBe(
        count > PROGRESS_FILES
          ? '    … 1 more changed file(s) in the report'
          : `    changed: scenario-${count}/typescript/tools-sdk.ts`,
      );
    },
  );
});

describe('the pull-request summary', () => {
  it.each([SUMMARY_CHANGES - 1, SUMMARY_CHANGES, SUMMARY_CHANGES + 1])(
    'shows the diffs of %i distinct changes up to the cap, counting the rest',
    (count) => {
      const pairs = Array.from({ length: count }, (_, i) =>
        mismatch(`scenario-${i + 1}`, [changeOf(`scenario-${i + 1}`, 5)]),
      );
      const summary = stepSummary({ runId: 'r', pairs, matrix: [] }, { ok: false, obsolete: [] });
      expect(summary.match(/```diff\n/g) ?? []).toHaveLength(Math.min(count, SUMMARY_CHANGES));
      // Every failing pair still names its change, shown or not.
      for (let i = 1; i <= count; i++)
        expect(summary).toContain(`**scenario-${i} × typescript**: mismatch (\`tools-sdk.ts\` change ${i})`);
      if (count > SUMMARY_CHANGES)
        expect(summary).toContain(
          `… 1 more distinct change(s) in 1 file(s) (change ${count}) in the HTML report (.concord/report.html)`,
        );
      else expect(summary).not.toContain('more distinct change(s)');
    },
  );

  it.each([DIFF_LINES - 1, DIFF_LINES, DIFF_LINES + 1])(
    'shows a distinct diff of %i lines up to the cap, pointing to the HTML report for the rest',
    (length) => {
      const summary = stepSummary(
        { runId: 'r', pairs: [mismatch('checkout', [changeOf('checkout', length)])], matrix: [] },
        { ok: false, obsolete: [] },
      );
      const fence = summary.slice(summary.indexOf('```diff\n') + '```diff\n'.length);
      const diff = fence.slice(0, fence.indexOf('\n```')).split('\n');
      expect(diff).toHaveLength(Math.min(length, DIFF_LINES));
      if (length > DIFF_LINES) expect(summary).toContain('… 1 more line(s) in the HTML report (.concord/report.html)');
      else expect(summary).not.toContain('more line(s)');
    },
  );
});

describe('a long reason (a plugin that throws 200 KB, the same for every pair)', () => {
  const huge = `plugin orders failed to start: ${'x'.repeat(200_000)} end of the message`;

  it.each([MAX_LINE_CHARS - 1, MAX_LINE_CHARS, MAX_LINE_CHARS + 1])(
    'shows a reason line of %i characters whole up to the cap, else its start and end',
    (length) => {
      const line = `e${'r'.repeat(length - 2)}!`;
      const shown = progressLine(failed('checkout', line), false).split('\n')[1]!.trim();
      if (length <= MAX_LINE_CHARS) expect(shown).toBe(line);
      else expect(shown).toBe(`${line.slice(0, 200)}…[${length - 280} characters]…${line.slice(-80)}`);
    },
  );

  it('is cut in the progress line, the verdict, the annotations and the step summary of every pair', async () => {
    const pairs = ['checkout', 'refund', 'status'].map((scenario) => failed(scenario, huge));
    const lines = [
      ...pairs.flatMap((pair) => progressLine(pair, false).split('\n')),
      ...verdictLines(pairs, REPORT, false),
      ...stepSummary({ runId: 'r', matrix: [], pairs }, { ok: false, obsolete: [] }).split('\n'),
    ];
    expect(lines.filter((line) => line.includes('…[199,'))).not.toHaveLength(0);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(MAX_LINE_CHARS + 100);
    const annotations = await githubAnnotations(pairs.map((pair) => ({ pair, file: '/nonexistent/orders.yml' })));
    expect(annotations).toHaveLength(3);
    for (const annotation of annotations) expect(annotation.length).toBeLessThan(MAX_LINE_CHARS + 200);
  });
});
