// `npm run bench -- gate`: wall time of one gate selection run serially (--jobs 1) and in parallel
// (--jobs = the number of cores), in the same process, with the ratio. Nothing under snapshots/ is written:
// both runs compare in CI mode and send proposals and reports to a scratch folder.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';

const dist = new URL('../../dist/', import.meta.url);
const built = (relative) => import(new URL(relative, dist).href);

export default async function run(log) {
  const { runGate } = await built('harness/gate/gate.js');
  const { packageRoot } = await built('runtimes/seam/package-root.js');
  const cores = os.availableParallelism();
  const scratch = await mkdtemp(join(os.tmpdir(), 'concord-bench-gate-'));
  const selection = { runtimes: ['typescript', 'python', 'pyodide'] };
  try {
    const wall = async (jobs) => {
      const started = performance.now();
      const result = await runGate({ root: packageRoot(), pendingRoot: join(scratch, `pending-${jobs}`), reportRoot: join(scratch, `report-${jobs}`), selection, update: 'none', ci: true, jobs, color: false, out: () => undefined });
      return { ms: performance.now() - started, pairs: result.results.length, ok: result.ok };
    };
    // Every run boots its runtimes afresh; a first, unmeasured run warms the disk cache for both alike.
    await wall(cores);
    const serial = await wall(1);
    const parallel = await wall(cores);
    log(`selection: ${serial.pairs} pairs (${selection.runtimes.join(', ')}), load average ${os.loadavg()[0].toFixed(1)} on ${cores} cores`);
    log(`serial   --jobs 1: ${(serial.ms / 1000).toFixed(1)} s${serial.ok ? '' : ' (the gate failed)'}`);
    log(`parallel --jobs ${cores}: ${(parallel.ms / 1000).toFixed(1)} s${parallel.ok ? '' : ' (the gate failed)'}`);
    log(`parallel / serial: ${(parallel.ms / serial.ms).toFixed(2)}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
