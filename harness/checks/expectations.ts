import { EXPECTATIONS, type Finding } from '../findings.js';
import type { PairCheck } from './types.js';

/** The scenario's own `expect:` block: the outcome of each run_code call and words of the final answer. */
export const expectationsCheck: PairCheck = {
  id: EXPECTATIONS,
  needsPair: "it compares a scenario's runs with its `expect:`",
  run({ pair: { scenario, record } }) {
    const findings: Finding[] = [];
    const fail = (message: string) => findings.push({ check: EXPECTATIONS, severity: 'error', message });
    const { runs, finalIncludes } = scenario.expect;
    // A conversation that stopped short (a script mismatch) already fails the pair: the runs it never made and the
    // final answer it never reached would only repeat that.
    const stoppedShort = record.failure !== undefined;
    if (runs) {
      const actual = record.programs.map((p) => p.result.error?.kind ?? 'ok');
      runs.forEach((want, i) => {
        const got = actual[i];
        if (got === undefined && stoppedShort) return;
        if (got !== want)
          fail(
            `run_code call ${i + 1}: expected ${want}, got ${got ?? 'no run'}${record.programs[i]?.result.error ? ` (${record.programs[i]!.result.error!.message.split('\n')[0]})` : ''}`,
          );
      });
    }
    // A run past a bridge bound used a tool it could not use as written: it fails the pair unless the scenario
    // expects exactly that.
    record.programs.forEach((p, i) => {
      if (p.result.error?.kind === 'bridge-limit' && runs?.[i] === undefined)
        fail(
          `run_code call ${i + 1} ended as bridge-limit: ${p.result.error.message.split('\n')[0]} (raise the bound in the scenario's runtime: or concord.config.yml, or expect bridge-limit in expect.runs)`,
        );
    });
    for (const part of stoppedShort ? [] : (finalIncludes ?? [])) {
      if (!(record.answer ?? '').includes(part))
        fail(
          `the final answer should include ${JSON.stringify(part)}; it is ${JSON.stringify(record.answer ?? '(none)')}`,
        );
    }
    return findings;
  },
};
