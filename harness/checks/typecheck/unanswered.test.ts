import { afterAll, expect, it, vi } from 'vitest';
import { disposeSharedRuntimes } from '../../../runtimes/seam/pool.js';
import { committedScenarios, runPair } from '../test/run-pair.js';
import { typecheckProgramsCheck } from '../typecheck-programs.js';
import { stopPyrightServers } from './pyright-server.js';

// A real pyright that gives up after 1 ms: the check must then fail the programs, not pass them.
vi.mock('./pyright-server.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./pyright-server.js')>();
  let impatient: InstanceType<typeof real.PyrightServer> | undefined;
  return {
    ...real,
    pyrightServer: (pythonVersion: string) => (impatient ??= new real.PyrightServer(pythonVersion, 1)),
    stopPyrightServers: () => impatient?.kill(),
  };
});

afterAll(async () => {
  stopPyrightServers();
  await disposeSharedRuntimes();
});

it('fails the python programs of a scenario when pyright does not answer in time', { timeout: 120_000 }, async () => {
  const scenario = (await committedScenarios()).find((s) => s.name === 'nested-reads')!;
  const findings = await typecheckProgramsCheck.run(await runPair(scenario, 'python'));
  expect(findings).toEqual([
    { check: 'typecheck-programs', severity: 'error', message: 'pyright: scenarios/nested-reads.yml run_code calls 1, 2 (python) are unchecked: pyright did not answer within 0.001 s' },
  ]);
});
