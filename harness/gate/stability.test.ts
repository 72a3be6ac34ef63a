import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../runtimes/seam/types.js';
import { runRecord } from '../snapshot/test/run-record.js';
import type { RunRecord } from '../snapshot/transcript.js';
import { firstDifference, instabilityHint } from './stability.js';

/** A run of one program that made `calls` calls and ended with `result`. */
const run = (calls: number, result: RunResult = { value: 1, logs: [] }, failure?: string): RunRecord =>
  runRecord({
    programs: [
      {
        code: 'x',
        tools: ['t'],
        calls: Array.from({ length: calls }, () => ({ tool: 't', args: {}, value: 1 })),
        result,
      },
    ],
    ...(failure === undefined ? {} : { failure }),
  });

describe('why two runs of a pair differ', () => {
  it('names the time budget when a run was cut off, before anything else', () => {
    const cut = run(7, { logs: [], error: { kind: 'timeout', message: 'timed out' } });
    expect(instabilityHint(run(5), cut, 300)).toBe(
      "calls cut off by the time budget (timeoutMs 300): a program ran until the budget stopped it, so what it called depends on the machine's speed (5 tool call(s) in the first run, 7 in the second); poll a fixed number of times, or end the program before the budget",
    );
  });

  it('names the number of calls, then a run that stopped short, then what a tool answered or a plugin kept', () => {
    expect(instabilityHint(run(2), run(3), undefined)).toMatch(
      /^the number of calls differs \(2 tool call\(s\) in the first run, 3 in the second\)/,
    );
    expect(instabilityHint(run(2), run(2, undefined, 'the model gave up'), undefined)).toMatch(
      /^one run stopped short and the other did not/,
    );
    expect(instabilityHint(run(2), run(2), undefined)).toContain(
      "state a plugin module keeps in a variable of its own, which lives on from one pair's app to the next",
    );
  });

  it('names a tool that answered the same call differently, before the calls or the failure that followed from it', () => {
    // A plugin keeping notes in a module variable: the second run's list has one more, and its script stops short.
    const notes = (count: number, more: number, failure?: string): RunRecord =>
      runRecord({
        programs: [
          {
            code: 'x',
            tools: ['add_note', 'list_notes'],
            calls: [
              { tool: 'add_note', args: { text: 'a' }, value: { id: `n${count}` } },
              { tool: 'list_notes', args: {}, value: { count } },
              ...Array.from({ length: more }, () => ({ tool: 'list_notes', args: {}, value: { count } })),
            ],
            result: { value: count, logs: [] },
          },
        ],
        ...(failure === undefined ? {} : { failure }),
      });
    const hint = instabilityHint(notes(1, 0), notes(2, 1, 'the script expected another call'), undefined);
    expect(hint).toMatch(/^add_note answered the same call \(call 1\) differently in the two runs \(/);
    expect(hint).toContain('state a plugin module keeps in a variable of its own');
    expect(hint).toContain('state goes in the app, made in apply');
    // Called with other arguments, the calls themselves differ: the count is what is said.
    const other = runRecord({
      programs: [{ code: 'x', tools: ['t'], calls: [{ tool: 't', args: { n: 2 }, value: 2 }], result: { logs: [] } }],
    });
    expect(instabilityHint(run(2), other, undefined)).toMatch(/^the number of calls differs/);
  });

  it('points at the first line where the files part, files in name order', () => {
    const first = new Map([
      ['b.yaml', 'same\nvalue: 1\n'],
      ['a.yaml', 'x\n'],
    ]);
    const second = new Map([
      ['b.yaml', 'same\nvalue: 3\n'],
      ['a.yaml', 'x\n'],
    ]);
    expect(firstDifference(first, second)).toEqual({ file: 'b.yaml', line: 2, first: 'value: 1', second: 'value: 3' });
    expect(firstDifference(first, new Map(first))).toBeUndefined();
  });
});
