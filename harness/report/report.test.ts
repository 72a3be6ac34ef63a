import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StubCell } from '../interpreters/types.js';
import { renderReport } from './markdown.js';
import type { ReportInput } from './outcome.js';
import { writeReport } from './write.js';

const cell = (scenario: string, runtime: string, interpreter: string, rest: Partial<StubCell>): StubCell => ({
  scenario,
  runtime,
  interpreter,
  version: interpreter.split(' ')[1]!,
  belowFloor: false,
  outcome: 'ok',
  python: '3.13.2',
  unicode: '15.1.0',
  ...rest,
});

const REJECTION =
  "SyntaxError at line 12, column 7: invalid character 'ꟑ' (U+A7D1)\n12 | class ꟑLookup(TypedDict):  # a | b ```\n          ^";

const input: ReportInput = {
  runId: 'run-1',
  floor: '3.9',
  interpreters: [
    { label: 'local 3.8', version: '3.8', unicode: '12.1.0', detail: '/usr/bin/python3.8' },
    { label: 'local 3.9', version: '3.9', unicode: '13.0.0', detail: '/usr/bin/python3.9' },
    { label: 'pyodide 3.13', version: '3.13', unicode: '15.1.0', detail: 'Pyodide 0.29.3' },
  ],
  absent: ['containers: no Docker engine answers'],
  matrix: [
    cell('nested-reads', 'python', 'local 3.8', {
      belowFloor: true,
      outcome: 'rejected',
      error: 'SyntaxError at line 1, column 1: old',
    }),
    cell('nested-reads', 'python', 'local 3.9', {}),
    cell('nested-reads', 'python', 'pyodide 3.13', {}),
    cell('past-floor', 'pyodide', 'local 3.8', { belowFloor: true }),
    cell('past-floor', 'pyodide', 'local 3.9', { outcome: 'rejected', error: REJECTION }),
    cell('past-floor', 'pyodide', 'pyodide 3.13', {
      outcome: 'unavailable',
      error: 'the Pyodide worker exited',
      python: undefined,
      unicode: undefined,
    }),
  ],
  pairs: [
    {
      scenario: 'nested-reads',
      runtime: 'python',
      status: 'pass',
      findings: [{ check: 'stub-validity', severity: 'note', message: 'below the floor' }],
    },
    { scenario: 'nested-reads', runtime: 'typescript', status: 'pass', findings: [] },
    {
      scenario: 'past-floor',
      runtime: 'pyodide',
      status: 'failed',
      reason: 'stub-validity: tools-sdk.py does not compile',
      findings: [
        {
          check: 'stub-validity',
          severity: 'error',
          message: `tools-sdk.py does not compile on local 3.9: ${REJECTION}`,
        },
      ],
    },
  ],
  runFindings: [
    { check: 'renderer-floor', severity: 'error', message: 'the Python renderer is not pinned to the floor 3.9' },
  ],
};

describe('the report', () => {
  const text = renderReport(input);

  it('draws the matrix per scenario × runtime × interpreter, below-floor cells in parentheses', () => {
    expect(text).toContain('| scenario | runtime | local 3.8 | local 3.9 | pyodide 3.13 |');
    expect(text).toContain('| nested-reads | python | (✗ 1) | ✓ | ✓ |');
    expect(text).toContain('| past-floor | pyodide | (✓) | ✗ 2 | ? 3 |');
  });

  it('lists each error with its interpreter, versions, line and column, in a fence its backticks cannot close', () => {
    expect(text).toContain('2. **past-floor × pyodide** on local 3.9 (CPython 3.13.2, Unicode 15.1.0):');
    expect(text).toContain("   ````text\n   SyntaxError at line 12, column 7: invalid character 'ꟑ' (U+A7D1)\n");
    expect(text).toContain('3. **past-floor × pyodide** on pyodide 3.13:');
  });

  it('numbers one error once however many pairs show it on the same interpreter, and points every cell at it', () => {
    const shared = renderReport({
      ...input,
      matrix: [
        ...input.matrix,
        cell('orders', 'python', 'local 3.9', { outcome: 'rejected', error: REJECTION }),
        cell('orders', 'pyodide', 'local 3.9', { outcome: 'rejected', error: REJECTION }),
      ],
    });
    expect(shared).toContain(
      '2. the same error in 3 pairs, **past-floor × pyodide**, **orders × python**, **orders × pyodide** on local 3.9 (CPython 3.13.2, Unicode 15.1.0):',
    );
    expect(shared).toContain('| orders | python |  | ✗ 2 |  |');
    expect(shared).toContain('| orders | pyodide |  | ✗ 2 |  |');
    const section = shared.slice(
      shared.indexOf('## Stub validity'),
      shared.indexOf('\n## ', shared.indexOf('## Stub validity')),
    );
    expect(section.match(/invalid character 'ꟑ'/g)).toHaveLength(1);
    expect(shared).toContain('3. **past-floor × pyodide** on pyodide 3.13:');
  });

  it("lists the interpreters, what is absent, and every check's findings", () => {
    expect(text).toContain('| local 3.9 | 3.9 | 13.0.0 | /usr/bin/python3.9 |');
    expect(text).toContain('- not available: containers: no Docker engine answers');
    expect(text).toContain('- **error** `renderer-floor`: the Python renderer is not pinned to the floor 3.9');
    expect(text).toContain('### past-floor × pyodide: failed');
    expect(text).toContain(
      '- **error** `stub-validity`: tools-sdk.py does not compile on local 3.9: SyntaxError at line 12, column 7',
    );
    expect(text).toContain('- **note** `stub-validity`: below the floor');
    expect(text).not.toContain('### nested-reads × typescript');
    expect(text).toMatch(/^Run `run-1` · floor CPython 3\.9 · 3 scenario × runtime pair\(s\): 2 pass, 1 failed\.$/m);
  });

  it('says findings that pairs share alike once, under the names of every pair that has them', () => {
    const note = {
      check: 'stub-import',
      severity: 'note' as const,
      message: 'fails on local 3.8 (below the floor 3.9: not a failure)\n63 |     orders: list[Item]',
    };
    const pairs = ['checkout', 'refund'].flatMap((scenario) =>
      ['python', 'pyodide'].map((runtime) => ({ scenario, runtime, status: 'mismatch', findings: [note] })),
    );
    const other = {
      scenario: 'refund',
      runtime: 'python-container',
      status: 'mismatch',
      findings: [{ ...note, message: 'fails on local 3.8 in its own way' }],
    };
    const alike = renderReport({
      ...input,
      runFindings: [],
      pairs: [...pairs, other, { ...pairs[0]!, scenario: 'track', status: 'failed' }],
    });
    const findings = alike.slice(alike.indexOf('## Findings'));
    expect(findings).toContain('### checkout, refund × python, pyodide: mismatch');
    expect(findings.match(/orders: list\[Item\]/g)).toHaveLength(2);
    expect(findings).toContain(
      '### refund × python-container: mismatch\n\n- **note** `stub-import`: fails on local 3.8 in its own way',
    );
    // Another status is another group, though its findings are the same.
    expect(findings).toContain('### track × python: failed');
  });

  it("shows the probe's verdict per language with its interpreter matrix and times", () => {
    const probed = renderReport({
      ...input,
      stepTimes: { rendererFloor: 812.4, probe: 3456.7 },
      probes: [
        {
          language: 'typescript',
          scenario: 'mode-both',
          runtime: 'typescript',
          tools: 47,
          refused: [],
          cells: [
            { interpreter: 'tsc', version: 'TypeScript', detail: 'the TypeScript compiler, strict', outcome: 'ok' },
          ],
          naming: [],
          findings: [],
          elapsedMs: 903.2,
        },
        {
          language: 'python',
          scenario: 'exotic-names',
          runtime: 'python',
          tools: 52,
          refused: ['class'],
          cells: [
            {
              interpreter: 'local 3.9',
              version: '3.9',
              detail: '/usr/bin/python3.9',
              python: '3.9.2',
              unicode: '13.0.0',
              outcome: 'rejected',
              error: 'SyntaxError at line 3, column 5: invalid syntax',
              line: 3,
              column: 5,
            },
            {
              interpreter: 'pyodide 3.13',
              version: '3.13',
              detail: 'Pyodide 0.29.3',
              python: '3.13.2',
              unicode: '15.1.0',
              outcome: 'ok',
            },
          ],
          naming: [
            'declared names collide: A (line 1, column 7), Ａ (line 2, column 7) are one name after NFKC (A); the last one shadows the others',
          ],
          findings: [
            {
              check: 'probe',
              severity: 'error',
              message: 'python (the app of exotic-names on python): tools-sdk.py does not compile on local 3.9',
            },
          ],
          elapsedMs: 2553.9,
        },
      ],
    });
    expect(probed).toContain('## Adversarial probe');
    expect(probed).toContain('The probe took 3457 ms, the renderer-floor step 812 ms.');
    expect(probed).toContain(
      '| typescript | mode-both × typescript | 47 | ✓ passes | ✓ unique, each tool reachable once | 903 ms |',
    );
    expect(probed).toContain('| python | exotic-names × python | 51 | ✗ fails | ✗ 1 problem(s) | 2554 ms |');
    expect(probed).toContain('| local 3.9 | CPython 3.9.2, Unicode 13.0.0 | ✗ |');
    expect(probed).toContain('| pyodide 3.13 | CPython 3.13.2, Unicode 15.1.0 | ✓ |');
    expect(probed).toContain('The app already has tools named `"class"`; its own stand in for them.');
    expect(text).not.toContain('## Adversarial probe');
  });

  it('says so when nothing was compiled or found', () => {
    const empty = renderReport({
      runId: 'r',
      pairs: [{ scenario: 's', runtime: 'typescript', status: 'pass', findings: [] }],
      matrix: [],
    });
    expect(empty).toContain('No Python `tools:sdk` block was compiled in this run.');
    expect(empty).toContain('No check found anything.');
  });
});

describe('writing the report', () => {
  const roots: string[] = [];
  afterAll(() => Promise.all(roots.map((r) => rm(r, { recursive: true, force: true }))));

  it('replaces .concord/report.md whole and leaves no temp file', async () => {
    const root = await mkdtemp(join(tmpdir(), 'concord-report-'));
    roots.push(root);
    const first = await writeReport(root, input);
    expect(first).toBe(join(root, '.concord', 'report.md'));
    await writeFile(first, 'stale');
    await writeReport(root, { ...input, runId: 'run-2' });
    expect(await readFile(first, 'utf8')).toBe(renderReport({ ...input, runId: 'run-2' }));
    expect(await readdir(join(root, '.concord'))).toEqual(['report.html', 'report.md']);
  });
});
