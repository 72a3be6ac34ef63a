import { expect, it } from 'vitest';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { runOne } from '../gate/run-one.js';
import { projectAt } from '../project/root.js';
import { Session } from '../session.js';
import { drivePairs, loadPairs } from './drive.js';

it('starts the runtime of each runtime in the pool before the pair order reaches it, and the pairs borrow that one', { timeout: 180_000 }, async () => {
  const { pairs } = await loadPairs(projectAt(packageRoot()), { scenarios: ['exotic-names'], runtimes: ['typescript', 'pyodide'] });
  await using session = new Session();
  const seen: string[][] = [];
  const results = await drivePairs({
    session,
    pairs,
    run: async ({ scenario, target }) => {
      seen.push(session.runtimes.keys());
      return (await runOne(scenario, target)).record.failure ?? 'ran';
    },
  });
  expect(results).toEqual(['ran', 'ran']);
  // Before the Pyodide pair booted anything, its runtime was already in the pool (no one else puts it there);
  // the pair borrowed that one and started no other.
  expect(seen[1]!.some((key) => key.startsWith('concord-runtime-pyodide '))).toBe(true);
  expect(session.runtimes.keys()).toHaveLength(2);
});

it('leaves the runtimes of pairs that do not run unstarted', async () => {
  const { pairs } = await loadPairs(projectAt(packageRoot()), { scenarios: ['exotic-names'], runtimes: ['typescript', 'pyodide'] });
  await using session = new Session();
  await drivePairs({ session, pairs, notRun: { runtimes: new Map([['pyodide', 'not here']]), result: () => 'not run' }, run: async () => 'ran' });
  expect(session.runtimes.keys().some((key) => key.startsWith('concord-runtime-pyodide '))).toBe(false);
});

it('runs a later pair whose runtime is up before an earlier one whose runtime is still starting, and reports them in order', { timeout: 180_000 }, async () => {
  const { pairs } = await loadPairs(projectAt(packageRoot()), { scenarios: ['exotic-names'], runtimes: ['typescript', 'pyodide'] });
  const [typescript, pyodide] = [pairs.find((p) => p.runtime === 'typescript')!, pairs.find((p) => p.runtime === 'pyodide')!];
  await using session = new Session();
  const ran: string[] = [];
  const results = await drivePairs({
    session,
    // The Pyodide pair comes before the second TypeScript pair, but its interpreter boots for seconds.
    pairs: [typescript, pyodide, { ...typescript }],
    run: async ({ pair, scenario, target }) => {
      ran.push(pair.runtime);
      return `${pair.runtime}: ${(await runOne(scenario, target)).record.failure ?? 'ran'}`;
    },
  });
  expect(ran).toEqual(['typescript', 'typescript', 'pyodide']);
  expect(results).toEqual(['typescript: ran', 'pyodide: ran', 'typescript: ran']);
});
