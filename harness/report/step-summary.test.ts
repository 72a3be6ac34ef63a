import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PairResult } from '../gate/report.js';
import { textDiff } from '../text/diff.js';
import { appendStepSummary, stepSummary } from './step-summary.js';

const times = { assembly: 1, model: 1, runtime: 1, checks: 1 };
const before = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n';
const after = before.replace('line 3\n', 'line three\n').replace('line 20\n', 'line twenty\n').replace('line 37\n', 'line thirty-seven\n');
const PAIRS: PairResult[] = [
  { scenario: 'alpha', runtime: 'typescript', status: 'pass', times, verdicts: [], findings: [] },
  { scenario: 'alpha', runtime: 'python', status: 'mismatch', times, findings: [], verdicts: [{ path: 'alpha/python/transcript.yaml', status: 'changed', diff: textDiff({ before: 'committed', after: 'this run' }, before, after) }] },
];

let dir = '';
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the pull-request summary', () => {
  it('shows the matrix, each failure with the first lines of its diff, and how to apply the proposals', () => {
    const text = stepSummary({ runId: 'r1', pairs: PAIRS, matrix: [] }, { ok: false, obsolete: ['gone/python'], pendingArtifact: 'concord-pending' });
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

  it('is appended only when GITHUB_STEP_SUMMARY names a file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'concord-summary-'));
    const file = join(dir, 'summary.md');
    expect(await appendStepSummary('one\n', {})).toBeUndefined();
    expect(await appendStepSummary('one\n', { GITHUB_STEP_SUMMARY: file })).toBe(file);
    await appendStepSummary('two\n', { GITHUB_STEP_SUMMARY: file });
    expect(await readFile(file, 'utf8')).toBe('one\ntwo\n');
  });
});
