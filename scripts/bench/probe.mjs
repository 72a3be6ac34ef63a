// `npm run bench -- probe`: what the run-level steps add to one gate run: the adversarial probe per language
// and the renderer-floor step over every committed Python scenario, each timed cold (interpreters and runtimes
// starting, as in a gate run whose pairs were all TypeScript) and warm (as after the pairs kept them running).
// Then what executing the stubs as modules (the stub-import half of stub validity, in the same round trip as
// compiling them) costs per interpreter and adds to a gate's checks phase: every committed scenario runs once
// on the python runtime (not timed), then every check runs on all of them, with the import and with only the
// compile (the import answered as a pass without running anything), on the same warm interpreters with fresh
// caches, and pyright asked afresh each round (once per scenario, as a gate asks it). CONCORD_BENCH_RUNS sets
// the warm runs (default 5).
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { built, median } from './support/built.mjs';

const RUNS = Number(process.env.CONCORD_BENCH_RUNS ?? 5);
/** A warm probe of one language may take this long: a small share of a gate run of a few minutes. */
const TARGETS = { warmProbeMs: 5000 };
/** The stub import may add this share to the checks phase without it. */
const TARGET_SHARE = 0.15;

export default async function bench(log) {
  if (!Number.isInteger(RUNS) || RUNS < 1)
    throw new Error(`CONCORD_BENCH_RUNS must be a positive integer, not ${process.env.CONCORD_BENCH_RUNS}`);
  const { loadScenarios } = await built('harness/scenario/discover.js');
  const { probeTarget } = await built('harness/assembly/probe-targets.js');
  const { runProbe } = await built('harness/probe/adversarial.js');
  const { rendererFloorFindings } = await built('harness/skew/renderer-floor.js');
  const { InterpreterInventory } = await built('harness/interpreters/inventory.js');
  const { Session } = await built('harness/session.js');
  // One session for the whole bench, as one gate has: its runtimes and interpreters stay warm between rounds.
  const session = new Session();
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const scenarios = await loadScenarios(join(root, 'scenarios'), root);
  const unavailable = new Set(['python-container']);
  const targets = (language) => scenarios.flatMap((s) => probeTarget(s, language, unavailable, session) ?? []);
  // Every run compiles afresh on the same running interpreters: an inventory remembers what it compiled.
  const inventory = async () => {
    const base = await session.inventory();
    return new InterpreterInventory(base.interpreters, base.absent);
  };

  log(
    `${RUNS} warm runs after one cold run; load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`,
  );
  const steps = {
    'probe typescript': async () => (await runProbe(targets('typescript'), '3.9', inventory, session)).findings,
    'probe python': async () => (await runProbe(targets('python'), '3.9', inventory, session)).findings,
    [`renderer-floor (${targets('python').length} apps)`]: async () =>
      (await rendererFloorFindings(targets('python'), '3.9', inventory)).findings,
  };
  const verdicts = [];
  try {
    for (const [name, step] of Object.entries(steps)) {
      const timed = async () => {
        const started = performance.now();
        const findings = await step();
        if (findings.some((f) => f.severity === 'error'))
          throw new Error(`${name} failed: ${findings.map((f) => f.message).join('; ')}`);
        return performance.now() - started;
      };
      const cold = await timed();
      const warm = [];
      for (let i = 0; i < RUNS; i++) warm.push(await timed());
      log(`${name.padEnd(28)} cold ${Math.round(cold)} ms · warm p50 ${Math.round(median(warm))} ms`);
      if (name.startsWith('probe'))
        verdicts.push({
          name,
          ok: median(warm) <= TARGETS.warmProbeMs,
          text: `${name}: warm p50 ${Math.round(median(warm))} ms (target ≤ ${TARGETS.warmProbeMs} ms)`,
        });
    }
    verdicts.push(await benchStubImport(log, RUNS, root, session));
  } finally {
    await session.dispose();
  }
  for (const v of verdicts) log(`${v.ok ? 'ok  ' : 'MISS'} ${v.text}`);
}

async function benchStubImport(log, runs, root, session) {
  const { loadScenarios } = await built('harness/scenario/discover.js');
  const { runtimeTarget } = await built('harness/assembly/runtimes.js');
  const { runOne } = await built('harness/pairs/run-one.js');
  const { snapshotFiles } = await built('harness/snapshot/transcript.js');
  const { CHECKS, runChecks } = await built('harness/checks/index.js');
  const { stubValidity, stubValidityCheck } = await built('harness/checks/stub-validity.js');
  const { InterpreterInventory } = await built('harness/interpreters/inventory.js');

  const inputs = [];
  for (const scenario of await loadScenarios(join(root, 'scenarios'), root)) {
    if (!scenario.runtimes.includes('python')) continue;
    const target = runtimeTarget('python', scenario.runtimeConfig, session);
    const { record } = await runOne(scenario, target);
    if (record.exchanges.length > 0)
      inputs.push({ scenario, runtime: target, record, files: snapshotFiles(record, root), floor: '3.9', session });
  }
  const base = await session.inventory();
  const sdks = inputs.map((input) => input.files.get('tools-sdk.py')).filter((sdk) => sdk !== undefined);
  // Boot every interpreter once (Pyodide, containers): the gate's pairs have them running by the checks.
  await base.verifyEverywhere(sdks);

  /** Compiles only, and answers every module as executed without error: stub validity without the import. */
  const compileOnly = (i) => ({
    label: i.label,
    kind: i.kind,
    version: i.version,
    detail: i.detail,
    unicode: i.unicode,
    identity: () => i.identity(),
    start: () => i.start(),
    compile: (sources) => i.compile(sources),
    verify: async (sources) => {
      const report = await i.compile(sources);
      return { ...report, imports: report.results.map((r) => (r.ok ? { ok: true } : null)) };
    },
    dispose: async () => {},
  });
  /** An inventory over the same interpreters with empty caches; `skipImport` leaves the import out. */
  const fresh = (skipImport) =>
    new InterpreterInventory(
      base.interpreters.map((i) => (skipImport ? compileOnly(i) : i)),
      base.absent,
    );
  const others = CHECKS.filter((check) => check !== stubValidity);
  // A gate type-checks each scenario's programs once, as it verifies each SDK once: each round asks pyright
  // afresh (its programs carry the round's number in a comment), on the server the first round started.
  const inRound = (input, round) => ({
    ...input,
    scenario: {
      ...input.scenario,
      script: input.scenario.script.map((step) =>
        step.kind === 'assistant' && step.runCode.programs.python !== undefined
          ? {
              ...step,
              runCode: {
                ...step.runCode,
                programs: {
                  ...step.runCode.programs,
                  python: `${step.runCode.programs.python}\n# bench round ${round}`,
                },
              },
            }
          : step,
      ),
    },
  });
  let round = 0;
  const checksPhase = async (skipImport) => {
    const inventory = fresh(skipImport);
    const checks = [stubValidityCheck({ inventory: async () => inventory }), ...others];
    const these = inputs.map((input) => inRound(input, round));
    round++;
    const started = performance.now();
    for (const input of these) await runChecks(input, checks);
    return performance.now() - started;
  };

  /** Per interpreter label, the times of one round trip over `sdks`; and the wall time of all at once. */
  const roundTrips = async (skipImport) => {
    const perInterpreter = new Map();
    const wall = [];
    for (let i = 0; i < runs; i++) {
      const inventory = fresh(skipImport);
      const started = performance.now();
      await Promise.all(
        inventory.interpreters.map(async (interpreter) => {
          const own = performance.now();
          await inventory.verifyOn(interpreter, sdks);
          perInterpreter.set(interpreter.label, [
            ...(perInterpreter.get(interpreter.label) ?? []),
            performance.now() - own,
          ]);
        }),
      );
      wall.push(performance.now() - started);
    }
    return { perInterpreter, wall };
  };
  const compiled = await roundTrips(true);
  const verified = await roundTrips(false);
  log(
    `stub validity: ${sdks.length} SDK texts, one round trip per interpreter, all interpreters at once (p50, compile only → compile and import)`,
  );
  for (const [label, times] of verified.perInterpreter) {
    const only = median(compiled.perInterpreter.get(label));
    log(
      `  ${label.padEnd(16)} ${String(Math.round(only)).padStart(5)} ms → ${String(Math.round(median(times))).padStart(5)} ms (import +${Math.round(median(times) - only)} ms)`,
    );
  }
  log(
    `  all at once      ${String(Math.round(median(compiled.wall))).padStart(5)} ms → ${String(Math.round(median(verified.wall))).padStart(5)} ms`,
  );

  // Once untimed: pyright's server and the runtimes' probe programs start, as the first pairs of a gate start them.
  await checksPhase(false);
  const withImport = [];
  const without = [];
  for (let i = 0; i < runs; i++) {
    without.push(await checksPhase(true));
    withImport.push(await checksPhase(false));
  }
  const added = median(withImport) - median(without);
  const share = added / median(without);
  log(
    `checks phase (${inputs.length} python pairs, every check): p50 ${Math.round(median(withImport))} ms with the import, ${Math.round(median(without))} ms with the compile alone`,
  );
  return {
    ok: share < TARGET_SHARE,
    text: `stub import adds ${Math.round(added)} ms to the checks phase: +${(share * 100).toFixed(1)}% (target < ${TARGET_SHARE * 100}%)`,
  };
}
