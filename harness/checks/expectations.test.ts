import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../runtimes/seam/types.js';
import { runRecord } from '../snapshot/test/run-record.js';
import { expectationsCheck } from './expectations.js';
import type { CheckInput, PairRun } from './types.js';

const program = (result: RunResult) => ({ code: 'x', tools: [], calls: [], result });
const ok = program({ value: 1, logs: [] });
const failed = program({ logs: [], error: { kind: 'exception', message: 'no stock\nmore' } });

const judge = (expect: object, record: object) =>
  expectationsCheck.run({
    pair: { scenario: { name: 'orders', expect }, record: runRecord(record) },
  } as unknown as CheckInput & { pair: PairRun });

describe('the expectations check', () => {
  const expected = { runs: ['ok', 'ok', 'ok'], finalIncludes: ['3 orders'] };

  it('names each run whose outcome differs and a final answer without the words', async () => {
    const findings = await judge(expected, { programs: [ok, failed], answer: 'No orders.' });
    expect(findings.map((f) => f.message)).toEqual([
      'run_code call 2: expected ok, got exception (no stock)',
      'run_code call 3: expected ok, got no run',
      'the final answer should include "3 orders"; it is "No orders."',
    ]);
  });

  it('adds nothing a stopped-short conversation implies: no run it never made, no final answer it never reached', async () => {
    const stopped = { programs: [ok, failed], failure: 'the request does not fit the script' };
    expect((await judge(expected, stopped)).map((f) => f.message)).toEqual([
      'run_code call 2: expected ok, got exception (no stock)',
    ]);
    expect(await judge(expected, { ...stopped, programs: [ok] })).toEqual([]);
  });

  it('fails a run past a bridge bound unless expect.runs names bridge-limit for it', async () => {
    const past = program({
      logs: [],
      error: {
        kind: 'bridge-limit',
        message: 'the result of tools.dump is 20 bytes of JSON, past the 10 a call may carry (bridgeBytes)',
      },
    });
    expect((await judge({}, { programs: [ok, past] })).map((f) => f.message)).toEqual([
      "run_code call 2 ended as bridge-limit: the result of tools.dump is 20 bytes of JSON, past the 10 a call may carry (bridgeBytes) (raise the bound in the scenario's runtime: or concord.config.yml, or expect bridge-limit in expect.runs)",
    ]);
    expect(await judge({ runs: ['ok', 'bridge-limit'] }, { programs: [ok, past] })).toEqual([]);
  });
});
