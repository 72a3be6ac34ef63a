// `npm run bench -- probe`: what the run-level steps add to one gate run: the adversarial probe per language
// and the renderer-floor step over every committed Python scenario, each timed cold (interpreters and runtimes
// starting, as in a gate run whose pairs were all TypeScript) and warm (as after the pairs kept them running).
// CONCORD_BENCH_RUNS sets the warm runs (default 5).
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = new URL('../../dist/', import.meta.url);
const built = (relative) => import(new URL(relative, dist).href);

const RUNS = Number(process.env.CONCORD_BENCH_RUNS ?? 5);
/** A warm probe of one language may take this long: a small share of a gate run of a few minutes. */
const TARGETS = { warmProbeMs: 5000 };

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export default async function bench(log) {
  if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`CONCORD_BENCH_RUNS must be a positive integer, not ${process.env.CONCORD_BENCH_RUNS}`);
  const { loadScenarios } = await built('harness/scenario/discover.js');
  const { probeTarget } = await built('harness/probe/targets.js');
  const { runProbe } = await built('harness/probe/adversarial.js');
  const { rendererFloorFindings } = await built('harness/skew/renderer-floor.js');
  const { InterpreterInventory, sharedInventory, disposeSharedInventory } = await built('harness/interpreters/inventory.js');
  const { disposeSharedRuntimes } = await built('runtimes/seam/pool.js');
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const scenarios = await loadScenarios(join(root, 'scenarios'), root);
  const unavailable = new Set(['python-container']);
  const targets = (language) => scenarios.flatMap((s) => probeTarget(s, language, unavailable) ?? []);
  // Every run compiles afresh on the same running interpreters: an inventory remembers what it compiled.
  const inventory = async () => {
    const base = await sharedInventory();
    return new InterpreterInventory(base.interpreters, base.absent);
  };

  log(`${RUNS} warm runs after one cold run; load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`);
  const steps = {
    'probe typescript': async () => (await runProbe(targets('typescript'), '3.9', inventory)).findings,
    'probe python': async () => (await runProbe(targets('python'), '3.9', inventory)).findings,
    [`renderer-floor (${targets('python').length} apps)`]: async () => (await rendererFloorFindings(targets('python'), '3.9', inventory)).findings,
  };
  const verdicts = [];
  try {
    for (const [name, step] of Object.entries(steps)) {
      const timed = async () => {
        const started = performance.now();
        const findings = await step();
        if (findings.some((f) => f.severity === 'error')) throw new Error(`${name} failed: ${findings.map((f) => f.message).join('; ')}`);
        return performance.now() - started;
      };
      const cold = await timed();
      const warm = [];
      for (let i = 0; i < RUNS; i++) warm.push(await timed());
      log(`${name.padEnd(28)} cold ${Math.round(cold)} ms · warm p50 ${Math.round(median(warm))} ms`);
      if (name.startsWith('probe')) verdicts.push({ name, ok: median(warm) <= TARGETS.warmProbeMs, text: `${name}: warm p50 ${Math.round(median(warm))} ms (target ≤ ${TARGETS.warmProbeMs} ms)` });
    }
  } finally {
    await disposeSharedRuntimes();
    await disposeSharedInventory();
  }
  for (const v of verdicts) log(`${v.ok ? 'ok  ' : 'MISS'} ${v.text}`);
}
