import { describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../report/html.js';
import { junitXml } from '../report/junit.js';
import { renderReport } from '../report/markdown.js';
import type { PairResult } from '../report/outcome.js';
import { stepSummary } from '../report/step-summary.js';
import { verdictLines } from '../report/summary.js';
import { compactPaths, groupChanges, groupHeading } from './change-groups.js';
import { type FileVerdict, snapshotDiff } from './store.js';

const times = { assembly: 1, model: 1, runtime: 1, checks: 1 };
const SDK_BEFORE =
  'class Tools:\n    async def get_order(self, args: GetOrderArgs) -> Order:\n        """Reads one order."""\n';
const SDK_AFTER = SDK_BEFORE.replace('Reads one order.', 'Reads one order by its id.');
const TS_BEFORE =
  'declare const tools: {\n  /** Reads one order. */\n  get_order(args: GetOrderArgs): Promise<Order>;\n};\n';
const TS_AFTER = TS_BEFORE.replace('Reads one order.', 'Reads one order by its id.');

const changed = (path: string, before: string, after: string): FileVerdict => ({
  path,
  status: 'changed',
  proposed: after,
  diff: snapshotDiff(path, before, after),
});
const SCENARIOS = ['checkout', 'refund', 'track'];
const PYTHON = ['python', 'pyodide', 'python-container'];

/** A renderer change: the same SDK line reworded in 3 scenarios × 4 runtimes, and one transcript of its own. */
const PAIRS: PairResult[] = SCENARIOS.flatMap((scenario) => [
  {
    scenario,
    runtime: 'typescript',
    status: 'mismatch' as const,
    times,
    findings: [],
    verdicts: [changed(`${scenario}/typescript/tools-sdk.ts`, TS_BEFORE, TS_AFTER)],
  },
  ...PYTHON.map((runtime) => ({
    scenario,
    runtime,
    status: 'mismatch' as const,
    times,
    findings: [],
    verdicts: [
      changed(`${scenario}/${runtime}/tools-sdk.py`, SDK_BEFORE, SDK_AFTER),
      ...(scenario === 'track' && runtime === 'python'
        ? [changed('track/python/transcript.yaml', 'calls: 3\n', 'calls: 4\n')]
        : []),
    ],
  })),
]);
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('one change, one diff', () => {
  it('groups files whose hunks are the same, whatever their line numbers, scenario or runtime', () => {
    const shifted = changed('refund/python/tools-sdk.py', `# header\n${SDK_BEFORE}`, `# header\n${SDK_AFTER}`);
    const groups = groupChanges([
      changed('a/python/tools-sdk.py', SDK_BEFORE, SDK_AFTER),
      shifted,
      changed('a/typescript/tools-sdk.ts', TS_BEFORE, TS_AFTER),
    ]);
    expect(groups.map((g) => g.paths)).toEqual([
      ['a/python/tools-sdk.py', 'refund/python/tools-sdk.py'],
      ['a/typescript/tools-sdk.ts'],
    ]);
    const fresh = groupChanges([
      { path: 'a/python/run_code.json', status: 'new', proposed: '{}' },
      { path: 'b/python/run_code.json', status: 'new', proposed: '{}' },
      { path: 'b/python/transcript.yaml', status: 'new', proposed: '{}' },
    ]);
    expect(fresh.map((g) => g.paths.length)).toEqual([2, 1]);
  });

  it('names a full scenario × runtime product of one file short, and lists anything else', () => {
    const paths = SCENARIOS.flatMap((s) => PYTHON.map((r) => `${s}/${r}/tools-sdk.py`));
    expect(compactPaths(paths)).toBe(
      'snapshots/{checkout,refund,track}/{python,pyodide,python-container}/tools-sdk.py',
    );
    expect(groupHeading({ status: 'changed', paths: paths.slice(0, 2) })).toBe(
      'the same change in 2 files: snapshots/checkout/{python,pyodide}/tools-sdk.py',
    );
    expect(compactPaths(['a/python/x.py', 'b/pyodide/x.py'])).toBe('snapshots/a/python/x.py, snapshots/b/pyodide/x.py');
  });

  it('shows each distinct diff once per language in the terminal, naming the changes of each failing pair', () => {
    const lines = verdictLines(PAIRS, '.concord/report.html', false);
    const text = lines.join('\n');
    expect(text).toContain('3 distinct change(s) in 13 file(s):');
    expect(text).toContain(
      '[change 1] the same change in 3 files: snapshots/{checkout,refund,track}/typescript/tools-sdk.ts',
    );
    expect(text).toContain(
      '[change 2] the same change in 9 files: snapshots/{checkout,refund,track}/{python,pyodide,python-container}/tools-sdk.py',
    );
    expect(text).toContain(
      '  ✗ track × python: mismatch — tools-sdk.py changed [change 2], transcript.yaml changed [change 3]',
    );
    expect(count(text, '+        """Reads one order by its id."""')).toBe(1);
    expect(count(text, '+  /** Reads one order by its id. */')).toBe(1);
    expect(lines.length).toBeLessThan(60);
  });

  it('shows each distinct diff once in report.md, report.html, JUnit and the pull-request summary', () => {
    const input = { runId: 'r', pairs: PAIRS, matrix: [] };
    const pyLine = '+        """Reads one order by its id."""';
    for (const [name, text] of [
      ['report.md', renderReport(input)],
      ['step summary', stepSummary(input, { ok: false, obsolete: [] })],
      ['junit', junitXml(PAIRS, [])],
    ] as const) {
      expect(count(text, pyLine.replace(/"/g, name === 'junit' ? '&quot;' : '"')), name).toBe(1);
      expect(text, name).toContain('the same change in 9 files');
    }
    const html = renderHtmlReport(input);
    // Once in the Python change, once in the TypeScript one, once in each SDK shown side by side.
    expect(count(html, 'by its id')).toBe(4);
    expect(count(html, '<a href="#change-2">change 2</a> (shared by 9 files)')).toBe(9);
  });
});

describe('one reason, one entry', () => {
  /** A renderer whose Python SDK does not compile: every Python runtime fails the same check with the same words. */
  const REASON =
    'stub-validity: tools-sdk.py does not compile on local 3.9 (CPython 3.9.18, Unicode 13.0.0): SyntaxError at line 11, column 15';
  const failed = (scenario: string, runtime: string, reason: string): PairResult => ({
    scenario,
    runtime,
    status: 'failed',
    times,
    findings: [],
    verdicts: [],
    reason,
  });
  const pairs = [
    ...PYTHON.map((runtime) => failed('checkout', runtime, REASON)),
    failed('refund', 'python', `${REASON.replace('line 11', 'line 12')}`),
  ];

  it('says the reason once in the terminal, under every pair that fails alike; a pair with other words stays apart', () => {
    const text = verdictLines(pairs, '.concord/report.html', false).join('\n');
    expect(text).toContain(
      `failing pairs (4):\n  ✗ checkout × python, pyodide, python-container: failed\n      ${REASON}\n  ✗ refund × python: failed\n      ${REASON.replace('line 11', 'line 12')}`,
    );
    expect(count(text, REASON)).toBe(1);
  });

  it('says it once in the pull-request summary', () => {
    const summary = stepSummary({ runId: 'r', pairs, matrix: [] }, { ok: false, obsolete: [] });
    expect(summary).toContain(
      '- **checkout × python, pyodide, python-container**: failed — stub-validity: tools-sdk.py does not compile',
    );
    expect(summary).toContain('- **refund × python**: failed — stub-validity:');
    expect(count(summary, 'line 11, column 15')).toBe(1);
  });
});
