import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { projectAt } from '../project/root.js';
import { Session } from '../session.js';
import { drivePairs, loadPairs } from './drive.js';
import { runOne } from './run-one.js';

const exoticNames = () =>
  loadPairs(projectAt(packageRoot()), { scenarios: ['exotic-names'], runtimes: ['typescript', 'pyodide'] });

// One drive, read by the first two tests: a Pyodide pair (its interpreter boots for seconds) between two
// TypeScript pairs. A Pyodide boot is most of what these tests cost, so they share one.
describe('pairs driven on a session', () => {
  const session = new Session();
  /** The pool's keys as each pair's run began, and the runtimes in the order they ran. */
  const seen: string[][] = [];
  const ran: string[] = [];
  let results: string[] = [];
  beforeAll(async () => {
    const { pairs } = await exoticNames();
    const [typescript, pyodide] = [
      pairs.find((p) => p.runtime === 'typescript')!,
      pairs.find((p) => p.runtime === 'pyodide')!,
    ];
    results = await drivePairs({
      session,
      pairs: [typescript, pyodide, { ...typescript }],
      run: async ({ pair, scenario, target }) => {
        seen.push(session.runtimes.keys());
        ran.push(pair.runtime);
        return `${pair.runtime}: ${(await runOne(scenario, target)).record.failure ?? 'ran'}`;
      },
    });
  }, 180_000);
  afterAll(() => session[Symbol.asyncDispose]());

  it('starts the runtime of each runtime in the pool before the pair order reaches it, and the pairs borrow that one', () => {
    expect(results).toEqual(['typescript: ran', 'pyodide: ran', 'typescript: ran']);
    // Before the Pyodide pair booted anything, its runtime was already in the pool (no one else puts it there);
    // the pair borrowed that one and started no other.
    expect(seen[ran.indexOf('pyodide')]!.some((key) => key.startsWith('concord-runtime-pyodide '))).toBe(true);
    expect(session.runtimes.keys()).toHaveLength(2);
  });

  it('runs a later pair whose runtime is up before an earlier one whose runtime is still starting, and reports them in order', () => {
    expect(ran).toEqual(['typescript', 'typescript', 'pyodide']);
    expect(results).toEqual(['typescript: ran', 'pyodide: ran', 'typescript: ran']);
  });
});

it('leaves the runtimes of pairs that do not run unstarted', async () => {
  const { pairs } = await exoticNames();
  await using session = new Session();
  await drivePairs({
    session,
    pairs,
    notRun: { runtimes: new Map([['pyodide', 'not here']]), result: () => 'not run' },
    run: async () => 'ran',
  });
  expect(session.runtimes.keys().some((key) => key.startsWith('concord-runtime-pyodide '))).toBe(false);
});
