import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { projectAt } from '../project/root.js';
import { Session } from '../session.js';
import { drivePairs, loadPairs } from './drive.js';

describe('the pair driver', () => {
  it('gives each runnable pair the project timeout (unless its scenario sets one) and a runtime of the session; a runtime that does not run is handed back; results in pair order', async () => {
    const { pairs } = await loadPairs(projectAt(packageRoot(), { timeoutMs: 4321 }), {
      scenarios: ['exotic-names', 'timeout'],
      runtimes: ['typescript', 'python', 'pyodide'],
    });
    expect(pairs.map((p) => `${p.scenario.name}/${p.runtime}`)).toEqual([
      'exotic-names/typescript',
      'exotic-names/python',
      'exotic-names/pyodide',
      'timeout/typescript',
      'timeout/python',
      'timeout/pyodide',
    ]);
    await using session = new Session();
    const settled: string[] = [];
    const results = await drivePairs({
      session,
      pairs,
      jobs: 3,
      notRun: {
        runtimes: new Map([['pyodide', 'not here']]),
        result: (pair, why) => `${pair.scenario.name}/${pair.runtime}: ${why}`,
      },
      run: async ({ pair, scenario, target }) => {
        // The later pairs finish first: the order of the results must not follow.
        await sleep(pair.runtime === 'typescript' ? 30 : 1);
        expect(target.session).toBe(session);
        expect(target.name).toBe(pair.runtime);
        expect(target.config.timeoutMs).toBe(scenario.runtimeConfig.timeoutMs);
        return `${scenario.name}/${target.name}: ${String(scenario.runtimeConfig.timeoutMs)} ms`;
      },
      settled: (result) => settled.push(result),
    });
    expect(results).toEqual([
      'exotic-names/typescript: 4321 ms',
      'exotic-names/python: 4321 ms',
      'exotic-names/pyodide: not here',
      'timeout/typescript: 1500 ms',
      'timeout/python: 1500 ms',
      'timeout/pyodide: not here',
    ]);
    expect(settled).toEqual(results);
  });

  it("selects on the project's runtimes (concord.config.yml) when the selection names none, and says where they came from", async () => {
    const project = projectAt(packageRoot(), { runtimes: ['python', 'typescript'] }, '/p/concord.config.yml');
    const own = await loadPairs(project, { scenarios: ['exotic-names'] });
    expect(own.pairs.map((p) => p.runtime)).toEqual(['typescript', 'python']);
    expect(own.selection).toEqual({
      scenarios: ['exotic-names'],
      runtimes: ['python', 'typescript'],
      runtimesFrom: 'runtimes in /p/concord.config.yml',
    });
    const named = await loadPairs(project, { scenarios: ['exotic-names'], runtimes: ['pyodide'] });
    expect(named.pairs.map((p) => p.runtime)).toEqual(['pyodide']);
  });

  it('returns only once the runtimes it started early are in the pool, so disposing the session stops them', async () => {
    const { pairs } = await loadPairs(projectAt(packageRoot()), {
      scenarios: ['exotic-names'],
      runtimes: ['typescript', 'python'],
    });
    await using session = new Session();
    // The pairs finish at once, long before a CPython server could start: the early starts are still on their way.
    await drivePairs({ session, pairs, run: async ({ pair }) => pair.runtime });
    const keys = session.runtimes.keys();
    // Put there after the disposal below, a runtime would run on with nothing to stop it, its scratch folder
    // and run channel left in the temp dir.
    expect(keys.map((key) => key.split(' ')[0]).sort()).toEqual(['concord-runtime-cpython', 'concord-runtime-worker']);
  });

  it('leaves the scenarios as they are without a project timeout', async () => {
    const { pairs } = await loadPairs(projectAt(packageRoot()), {
      scenarios: ['exotic-names'],
      runtimes: ['typescript'],
    });
    await using session = new Session();
    const [timeout] = await drivePairs({
      session,
      pairs,
      run: async ({ scenario, target }) => [scenario.runtimeConfig.timeoutMs, target.config.timeoutMs],
    });
    expect(timeout).toEqual([undefined, undefined]);
  });
});
