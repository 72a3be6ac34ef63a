import { describe, expect, it } from 'vitest';
import type { PairResult } from './outcome.js';
import { printSummary, type Summary } from './summary.js';

const times = { assembly: 1, model: 1, runtime: 1, checks: 1 };
const pass = (runtime: PairResult['runtime']): PairResult => ({
  scenario: 'notes',
  runtime,
  status: 'pass',
  times,
  verdicts: [],
  findings: [],
});
const base: Summary = {
  results: [pass('typescript'), pass('pyodide')],
  obsolete: [],
  inPlace: false,
  pendingDir: undefined,
  ok: true,
  runFindings: [],
  reportFile: '.concord/report.md',
};
const printed = (summary: Summary) => {
  const lines: string[] = [];
  printSummary({ out: (l) => lines.push(l), color: false }, summary);
  return lines;
};

describe('the gate summary', () => {
  it('says what ran and which unnamed runtimes were left out, and stays plainly green', () => {
    const lines = printed({ ...base, leftOut: ['python', 'python-container'] });
    expect(lines).toContain(
      'ran on typescript, pyodide; python, python-container cannot run here and no runtimes: list names them, so they were left out',
    );
    expect(lines.at(-1)).toBe('gate: everything agrees');
    expect(lines.join('\n')).not.toMatch(/skipped:|not everything ran/);
  });

  it('says nothing of it when every runtime the scenarios declare could run', () => {
    const lines = printed(base);
    expect(lines.join('\n')).not.toContain('left out');
    expect(lines.at(-1)).toBe('gate: everything agrees');
  });
});
