import type { GateResults } from '../format.js';

/** A well-formed results file of shard `index` of 2: one passing pair, `s<index>` on python, nothing proposed. */
export const wellFormedShard = (index: number): GateResults => ({
  concordResults: 1,
  commit: 'abc',
  configuration: { concordVersion: '0.1.0', floor: '3.9', update: 'none', ci: true, scenarios: null, runtimes: null },
  shard: { index, count: 2 },
  runId: `run-${index}`,
  pairs: [
    {
      scenario: `s${index}`,
      runtime: 'python',
      status: 'pass',
      times: { assembly: 0, model: 0, runtime: 0, checks: 0 },
      verdicts: [],
      findings: [],
    },
  ],
  obsolete: [],
  runFindings: [],
  matrix: [],
  interpreters: [],
  absent: [],
  proposals: [],
});
