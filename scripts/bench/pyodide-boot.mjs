// `npm run bench -- pyodide-boot`: the CPU one Pyodide worker process costs to boot from a memory snapshot
// and run one short program, as a gate's Pyodide pairs and checks boot it, against the same boot with V8's
// default WebAssembly tiering budget, measured in the same run, boot by boot interleaved. Prints the median
// CPU seconds of each and their ratio (goal: ≤ 0.85). CONCORD_BENCH_BOOTS sets the boots of each (default 7).
import os from 'node:os';
import { processCpuSeconds } from '../../test/proc-stat.mjs';
import { built, median } from './support/built.mjs';

const BOOTS = Number(process.env.CONCORD_BENCH_BOOTS ?? 7);
const TARGET_RATIO = 0.85;

/** CPU seconds of the children this process started and reaped so far. */
function childrenCpuSeconds() {
  const cpu = processCpuSeconds();
  return cpu.childrenUser + cpu.childrenSystem;
}

export default async function bench(log) {
  if (!Number.isInteger(BOOTS) || BOOTS < 1)
    throw new Error(`CONCORD_BENCH_BOOTS must be a positive integer, not ${process.env.CONCORD_BENCH_BOOTS}`);
  if (process.platform !== 'linux') {
    log('pyodide-boot: skipped: the CPU of a worker process is read from /proc (Linux only)');
    return;
  }
  const { PyodideInstance } = await built('runtimes/pyodide/instance.js');
  const { sandboxLaunch, WASM_TIERING_BUDGET } = await built('runtimes/pyodide/sandbox.js');
  const { DEFAULT_PYODIDE_VERSION } = await built('runtimes/pyodide/versions.js');
  const { PYODIDE_DEFAULTS } = await built('runtimes/pyodide/config.js');

  const flag = `--wasm-tiering-budget=${WASM_TIERING_BUDGET}`;
  const variants = {
    concord: sandboxLaunch,
    'V8 default': (packageDir) => {
      const launch = sandboxLaunch(packageDir);
      if (!launch.args.includes(flag))
        throw new Error(`the sandbox launch no longer passes ${flag}: update this benchmark`);
      return { ...launch, args: launch.args.filter((arg) => arg !== flag) };
    },
  };
  const entries = new Map();
  const store = {
    read: async (key) => entries.get(key.join('\n')),
    write: async (key, bytes) => void entries.set(key.join('\n'), bytes),
    drop: async (key) => void entries.delete(key.join('\n')),
  };

  /** One boot from the snapshot in `store`, one program, the process gone: its CPU seconds. */
  async function boot(launch) {
    const before = childrenCpuSeconds();
    const instance = new PyodideInstance(DEFAULT_PYODIDE_VERSION, PYODIDE_DEFAULTS.memoryLimitBytes, store, launch);
    instance.hold();
    try {
      await instance.ready;
      const { done } = instance.run('return sum(range(1000))', '[]', PYODIDE_DEFAULTS.outputLimitBytes, {
        onCall: () => {},
        onLog: () => {},
      });
      await done;
    } finally {
      await instance.terminate();
    }
    return { seconds: childrenCpuSeconds() - before, use: instance.snapshotUse };
  }

  // The first boot makes the snapshot every timed boot loads (untimed).
  await boot(sandboxLaunch);
  if (entries.size === 0) {
    log(`pyodide-boot: skipped: Pyodide ${DEFAULT_PYODIDE_VERSION} kept no memory snapshot`);
    return;
  }
  log(
    `${BOOTS} boots of each from a memory snapshot (Pyodide's CPython ${DEFAULT_PYODIDE_VERSION}), interleaved; load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`,
  );
  const seconds = { concord: [], 'V8 default': [] };
  for (let i = 0; i < BOOTS; i++) {
    for (const [name, launch] of Object.entries(variants)) {
      const measured = await boot(launch);
      if (measured.use !== 'loaded') throw new Error(`a timed boot did not load the snapshot (${measured.use})`);
      seconds[name].push(measured.seconds);
    }
  }
  const ours = median(seconds.concord);
  const base = median(seconds['V8 default']);
  log(`  tiering budget ${WASM_TIERING_BUDGET} (concord): ${ours.toFixed(2)} CPU-s per boot (median)`);
  log(`  V8's default tiering budget:        ${base.toFixed(2)} CPU-s per boot (median)`);
  const ratio = ours / base;
  log(`  ratio ${ratio.toFixed(2)} (goal ≤ ${TARGET_RATIO}): ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`);
}
