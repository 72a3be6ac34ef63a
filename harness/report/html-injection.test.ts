import { describe, expect, it } from 'vitest';
import { snapshotDiff } from '../snapshot/store.js';
import { renderHtmlReport } from './html.js';

describe('report.html from text with invisible characters', () => {
  it('shows a byte order mark, a zero-width space and a right-to-left override as escapes, in diffs, new files and reasons', () => {
    const times = { assembly: 1, model: 1, runtime: 1, checks: 1 };
    const before = '// Reads one order.\n';
    const after = '\ufeff// Reads one order. // \u202etluafed\u202c\n';
    const page = renderHtmlReport({
      runId: 'r',
      matrix: [],
      pairs: [
        {
          scenario: 'a',
          runtime: 'typescript',
          status: 'mismatch',
          times,
          findings: [],
          verdicts: [
            {
              path: 'a/typescript/tools-sdk.ts',
              status: 'changed',
              proposed: after,
              diff: snapshotDiff('a/typescript/tools-sdk.ts', before, after),
            },
          ],
        },
        {
          scenario: 'b',
          runtime: 'typescript',
          status: 'failed',
          times,
          findings: [],
          verdicts: [{ path: 'b/typescript/tools-sdk.ts', status: 'new', proposed: 'x\u200by\n\tz\n' }],
          reason: 'tool \u202eevil\u202c failed',
        },
      ],
    });
    expect(page).not.toMatch(/[\ufeff\u200b\u202e\u202c]/);
    expect(page).toContain('<ins>\\ufeff</ins>// Reads one order.');
    expect(page).toContain(' // \\u202etluafed\\u202c');
    expect(page).toContain('tool \\u202eevil\\u202c failed');
    expect(page).toContain('x\\u200by\n\tz');
  });
});
