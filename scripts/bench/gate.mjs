// `npm run bench -- gate`: wall time of one gate selection run serially (--jobs 1) and in parallel
// (--jobs = the number of cores), in the same process, with the ratio; then what the stability rerun costs a
// passing gate: the same parallel run with and without it (the baseline turns it off through runGate's
// internal stabilityRerun option), alternated, with the ratio of the best of each (goal ≤ 1.10) and the
// pair executions each made. Nothing under snapshots/ is written: every run compares in CI mode and sends
// proposals and reports to a scratch folder.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { built } from './support/built.mjs';

export default async function run(log) {
  const { runGate } = await built('harness/gate/gate.js');
  const { Session } = await built('harness/session.js');
  const { packageRoot } = await built('runtimes/seam/package-root.js');
  const { projectAt } = await built('harness/project/root.js');
  const cores = os.availableParallelism();
  const scratch = await mkdtemp(join(os.tmpdir(), 'concord-bench-gate-'));
  const selection = { runtimes: ['typescript', 'python', 'pyodide'] };
  // Each execution of a pair hands its scenario to the run's session once, before its app boots: counting
  // those calls counts the executions.
  let executions = 0;
  const handOver = Session.prototype.handOver;
  Session.prototype.handOver = function (...args) {
    executions++;
    return handOver.apply(this, args);
  };
  let runs = 0;
  try {
    const wall = async (jobs, extra = {}) => {
      const id = runs++;
      executions = 0;
      const started = performance.now();
      const result = await runGate({
        project: projectAt(packageRoot()),
        pendingRoot: join(scratch, `pending-${id}`),
        reportRoot: join(scratch, `report-${id}`),
        selection,
        update: 'none',
        ci: true,
        jobs,
        color: false,
        out: () => undefined,
        ...extra,
      });
      return { ms: performance.now() - started, pairs: result.pairs.length, ok: result.ok, executions };
    };
    const seconds = (run) => `${(run.ms / 1000).toFixed(1)} s${run.ok ? '' : ' (the gate failed)'}`;
    // Every run boots its runtimes afresh; a first, unmeasured run warms the disk cache for all alike.
    await wall(cores);
    const serial = await wall(1);
    const parallel = await wall(cores);
    log(
      `selection: ${serial.pairs} pairs (${selection.runtimes.join(', ')}), load average ${os.loadavg()[0].toFixed(1)} on ${cores} cores`,
    );
    log(`serial   --jobs 1: ${seconds(serial)}`);
    log(`parallel --jobs ${cores}: ${seconds(parallel)}`);
    log(`parallel / serial: ${(parallel.ms / serial.ms).toFixed(2)}`);

    const without = [await wall(cores, { stabilityRerun: false })];
    const withRerun = [parallel, await wall(cores)];
    without.push(await wall(cores, { stabilityRerun: false }));
    const best = (list) => list.reduce((a, b) => (b.ms < a.ms ? b : a));
    const [on, off] = [best(withRerun), best(without)];
    if (on.executions === 0)
      throw new Error(
        'bench gate: no pair execution was counted (Session.prototype.handOver is no longer called per run)',
      );
    if (!on.ok || !off.ok) log('the gate failed: the rerun costs below are not those of a passing gate');
    log(
      `stability rerun on a passing gate: ${seconds(on)} with it, ${seconds(off)} without (best of ${withRerun.length} each, alternated)`,
    );
    log(
      `pair executions: ${on.executions} with the rerun, ${off.executions} without, for ${on.pairs} pairs (each passing pair runs once)`,
    );
    log(`with rerun / without: ${(on.ms / off.ms).toFixed(2)} (goal ≤ 1.10)`);
  } finally {
    Session.prototype.handOver = handOver;
    await rm(scratch, { recursive: true, force: true });
  }
}
