import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../runtimes/seam/types.js';
import { formatRunResult, formatToolOutcome } from './result-text.js';

describe('a run_code result as text', () => {
  it('shows value, logs and error, each in its place', () => {
    expect(formatRunResult({ value: { total: 3, rows: [1, 'a'] }, logs: ['first', 'two\nlines'] })).toBe(
      ['value: {"total":3,"rows":[1,"a"]}', 'logs:', '  first', '  two', '  lines', 'error: (none)'].join('\n'),
    );
  });

  it('says plainly when there is no value, no log and what failed', () => {
    expect(
      formatRunResult({ logs: [], error: { kind: 'exception', name: 'ValueError', message: 'bad id\nline 2' } }),
    ).toBe(['value: (none)', 'logs: (none)', 'error: exception ValueError: bad id', '  line 2'].join('\n'));
    expect(formatRunResult({ logs: [], error: { kind: 'timeout', message: 'ran past 5000 ms' } })).toBe(
      ['value: (none)', 'logs: (none)', 'error: timeout: ran past 5000 ms'].join('\n'),
    );
  });

  it('writes a value of any depth, where JSON.stringify runs out of stack', () => {
    let deep: JsonValue = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(formatRunResult({ value: deep, logs: [] })).toBe(
      `value: ${'['.repeat(100_001)}${']'.repeat(100_001)}\nlogs: (none)\nerror: (none)`,
    );
  });

  it('tells a returned null from no value', () => {
    expect(formatRunResult({ value: null, logs: [] })).toMatch(/^value: null\n/);
  });
});

describe('a native tool outcome as text', () => {
  it('is the JSON value, or the error', () => {
    expect(formatToolOutcome({ value: { a: [1] } })).toBe('{"a":[1]}');
    expect(formatToolOutcome({ error: 'not found' })).toBe('error: not found');
  });
});
