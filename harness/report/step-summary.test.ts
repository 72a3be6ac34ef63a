import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { textDiff } from '../text/diff.js';
import type { PairResult } from './outcome.js';
import { appendStepSummary, fitSummary, STEP_SUMMARY_MAX_BYTES, stepSummary } from './step-summary.js';

const times = { assembly: 1, model: 1, runtime: 1, checks: 1 };
const before = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n';
const after = before
  .replace('line 3\n', 'line three\n')
  .replace('line 20\n', 'line twenty\n')
  .replace('line 37\n', 'line thirty-seven\n');
const PAIRS: PairResult[] = [
  { scenario: 'alpha', runtime: 'typescript', status: 'pass', times, verdicts: [], findings: [] },
  {
    scenario: 'alpha',
    runtime: 'python',
    status: 'mismatch',
    times,
    findings: [],
    verdicts: [
      {
        path: 'alpha/python/transcript.yaml',
        status: 'changed',
        diff: textDiff({ before: 'committed', after: 'this run' }, before, after),
      },
    ],
  },
];

let dir = '';
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the pull-request summary', () => {
  it('shows the matrix, each failure with the first lines of its diff, and how to apply the proposals', () => {
    const text = stepSummary(
      { runId: 'r1', pairs: PAIRS, matrix: [] },
      { ok: false, obsolete: ['gone/python'], pendingArtifact: 'concord-pending' },
    );
    expect(text).toContain('## concord gate: ❌ FAILED');
    expect(text).toContain('| alpha | ✅ pass | ❌ mismatch |');
    expect(text).toContain('- **alpha × python**: mismatch (`transcript.yaml` change 1)');
    expect(text).toContain('+line three');
    expect(text).toContain('+line twenty');
    expect(text).not.toContain('+line thirty-seven');
    expect(text).toMatch(/… \d+ more line\(s\) in the HTML report/);
    expect(text).toContain('- obsolete snapshot folder: `snapshots/gone/python`');
    expect(text).toContain('concord review --from concord-pending');
  });

  it('does not report a run that skipped a check as all green: it names the check, the pairs and the install command', () => {
    const skipped = {
      check: 'typecheck-programs',
      severity: 'note' as const,
      message: 'pyright: not type-checked',
      skipped: 'type-checking Python programs needs pyright, which is not installed: run `npm i pyright`',
    };
    const pairs: PairResult[] = [
      { scenario: 'alpha', runtime: 'python', status: 'pass', times, verdicts: [], findings: [skipped] },
      { scenario: 'alpha', runtime: 'pyodide', status: 'pass', times, verdicts: [], findings: [skipped] },
    ];
    const text = stepSummary({ runId: 'r1', pairs, matrix: [] }, { ok: true, obsolete: [] });
    expect(text).toContain('## concord gate: ⚠️ everything that ran agrees (skipped: 2 check(s))');
    expect(text).not.toContain('✅ everything agrees');
    expect(text).toContain(
      '- skipped: the typecheck-programs check on 2 pair(s) — type-checking Python programs needs pyright, which is not installed: run \\`npm i pyright\\`',
    );
    expect(
      stepSummary(
        { runId: 'r1', pairs: pairs.map((p) => ({ ...p, findings: [] })), matrix: [] },
        { ok: true, obsolete: [] },
      ),
    ).toContain('## concord gate: ✅ everything agrees');
  });

  it('keeps hostile folder, scenario and runtime names inside their code spans and table cells', () => {
    const evil = 'x` | <img src=x onerror=alert(1)> [link](https://evil.example) *bold* |';
    const pairs: PairResult[] = [
      { scenario: evil, runtime: 'typescript', status: 'pass', times, verdicts: [], findings: [] },
      {
        scenario: evil,
        runtime: evil,
        status: 'mismatch',
        times,
        findings: [],
        reason: evil,
        verdicts: [
          {
            path: `${evil}/python/run\`\`code.json`,
            status: 'changed',
            diff: textDiff({ before: 'a', after: 'b' }, 'one\n', 'two\n'),
          },
        ],
      },
    ];
    const text = stepSummary({ runId: 'r1', pairs, matrix: [] }, { ok: false, obsolete: [`${evil}/python`] });
    // No raw HTML, link or emphasis survives in the matrix or the failing pairs: each special character is escaped.
    for (const line of text.split('\n').filter((l) => l.startsWith('|') || l.startsWith('- **')))
      expect(line.replace(/^- \*\*|\*\*:/g, '')).not.toMatch(/(^|[^\\])[<[*]/);
    // The matrix keeps its columns: a header, a separator and a row with exactly 3 cell boundaries each (2 runtimes +
    // the name).
    const table = text.split('\n').filter((line) => line.startsWith('|'));
    for (const line of table) expect(line.replace(/\\\|/g, '').split('|').length - 1).toBe(4);
    // Every code span is closed by a backtick run as long as its opening one, longer than any run inside.
    expect(text).toContain(
      '- obsolete snapshot folder: `snapshots/x` \\| <img src=x onerror=alert(1)> [link](https://evil.example) *bold* \\|/python`'
        .replace('`snapshots', '``snapshots')
        .replace('/python`', '/python``'),
    );
    expect(text).toContain('```run``code.json```');
  });

  it('shows a changed file whose folder holds a space, or a comma, as one code span in the Changes heading', () => {
    const diff = textDiff({ before: 'a', after: 'b' }, 'one\n', 'two\n');
    const pair = (scenario: string, runtime: string, path: string): PairResult => ({
      scenario,
      runtime,
      status: 'mismatch',
      times,
      findings: [],
      verdicts: [{ path, status: 'changed', diff }],
    });
    const one = stepSummary(
      { runId: 'r1', pairs: [pair('my checkout', 'python', 'my checkout/python/transcript.yaml')], matrix: [] },
      { ok: false, obsolete: [] },
    );
    expect(one).toContain('**change 1** — changed: `snapshots/my checkout/python/transcript.yaml`\n');
    const shared = stepSummary(
      {
        runId: 'r1',
        pairs: [
          pair('a b, c', 'python', 'a b, c/python/transcript.yaml'),
          pair('a b, c', 'pyodide', 'a b, c/pyodide/transcript.yaml'),
          pair('d', 'python', 'd/python/run_code.json'),
        ].map((p, i) => (i === 2 ? { ...p, verdicts: [{ ...p.verdicts[0]!, diff }] } : p)),
        matrix: [],
      },
      { ok: false, obsolete: [] },
    );
    expect(shared).toContain(
      '**change 1** — the same change in 3 files: `snapshots/a b, c/{python,pyodide}/transcript.yaml`, `snapshots/d/python/run_code.json`\n',
    );
  });

  it('is appended only when GITHUB_STEP_SUMMARY names a file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'concord-summary-'));
    const file = join(dir, 'summary.md');
    expect(await appendStepSummary('one\n', {})).toBeUndefined();
    expect(await appendStepSummary('one\n', { GITHUB_STEP_SUMMARY: file })).toBe(file);
    await appendStepSummary(() => 'two\n', { GITHUB_STEP_SUMMARY: file });
    expect(await readFile(file, 'utf8')).toBe('one\ntwo\n');
    // Where no job reads one, the summary is not even made.
    let made = 0;
    expect(await appendStepSummary(() => `${++made}`, {})).toBeUndefined();
    expect(made).toBe(0);
  });
});

describe('the pull-request summary at GitHub’s size limit', () => {
  const NOTE =
    '\n… the summary was cut here: GitHub shows at most 1 MiB of a step summary. The HTML report (.concord/report.html) holds all of it.\n';
  const noteBytes = Buffer.byteLength(NOTE);

  it('is whole at its room and cut at a line one byte past it, within the room', () => {
    const text = 'é line\n'.repeat(2000);
    const size = Buffer.byteLength(text);
    expect(fitSummary(text, size)).toBe(text);
    // Every room a line's bytes can leave: the kept lines and the note never pass it.
    for (let room = size - 1; room > size - 12; room--) {
      const cut = fitSummary(text, room);
      expect(cut.endsWith(NOTE)).toBe(true);
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(room);
      expect(Buffer.byteLength(cut)).toBeGreaterThan(room - 9);
      expect(text.startsWith(cut.slice(0, -NOTE.length))).toBe(true);
      expect(cut.slice(0, -NOTE.length).endsWith('é line\n')).toBe(true);
    }
    // Room for the note alone, and less than that.
    expect(fitSummary(text, noteBytes)).toBe(NOTE);
    expect(fitSummary(text, noteBytes - 1)).toBe('');
  });

  it('keeps the file a step appends to within 1 MiB, what was there before counted', async () => {
    dir ||= await mkdtemp(join(tmpdir(), 'concord-summary-'));
    const file = join(dir, 'big-summary.md');
    const earlier = `an earlier step\n${'e'.repeat(600_000)}\n`;
    await writeFile(file, earlier);
    const line = `${'x'.repeat(999)}\n`;
    await appendStepSummary(line.repeat(2 * 1024), { GITHUB_STEP_SUMMARY: file });
    const written = await readFile(file, 'utf8');
    expect(Buffer.byteLength(written)).toBeLessThanOrEqual(STEP_SUMMARY_MAX_BYTES);
    expect(Buffer.byteLength(written)).toBeGreaterThan(STEP_SUMMARY_MAX_BYTES - 1000 - noteBytes);
    expect(written.startsWith(earlier)).toBe(true);
    expect(written.endsWith(NOTE)).toBe(true);
  });

  it('shows a megabyte line of a diff cut, so the summary of such a change is a few kilobytes', () => {
    const blob = 'x'.repeat(600_000);
    const summary = stepSummary(
      {
        runId: 'r1',
        matrix: [],
        pairs: [
          {
            scenario: 'alpha',
            runtime: 'python',
            status: 'mismatch',
            times,
            findings: [],
            verdicts: [
              {
                path: 'alpha/python/transcript.yaml',
                status: 'changed',
                diff: textDiff({ before: 'committed', after: 'this run' }, `blob: ${blob}a\n`, `blob: ${blob}b\n`),
              },
            ],
          },
        ],
      },
      { ok: false, obsolete: [] },
    );
    expect(Buffer.byteLength(summary)).toBeLessThan(8_000);
    expect(summary).toContain('[-a-]{+b+}');
  });
});
