import { afterAll, expect, it } from 'vitest';
import { Session } from '../../session.js';
import { committedScenarios, runPair } from '../test/run-pair.js';
import { typecheckProgramsCheck } from './check.js';

// A real pyright that gives up after 1 ms: the check must then fail the programs, not pass them.
const session = new Session({ pyrightTimeoutMs: 1 });
afterAll(() => session.dispose());

it('fails the python programs of a scenario when pyright does not answer in time', { timeout: 120_000 }, async () => {
  const scenario = (await committedScenarios()).find((s) => s.name === 'nested-reads')!;
  const findings = await typecheckProgramsCheck.run(await runPair(scenario, 'python', session));
  expect(findings).toEqual([
    {
      check: 'typecheck-programs',
      severity: 'error',
      message:
        'pyright: scenarios/nested-reads.yml run_code calls 1, 2 (python) are unchecked: pyright did not answer within 0.001 s',
    },
  ]);
});
