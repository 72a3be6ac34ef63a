// `npm run bench -- runtimes`: warm per-run latency and tool-call throughput of every code runtime, beside
// bare interpreter baselines measured in the same run, with the ratios the runtime targets are judged by.
// CONCORD_BENCH_RUNS sets the timed runs per runtime (default 30).
import { execFile, spawn } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { built } from './support/built.mjs';

const exec = promisify(execFile);

const RUNS = Number(process.env.CONCORD_BENCH_RUNS ?? 30);
const WARMUP_RUNS = 3;
const TOOL_CALLS = 2000;
/** Throughput is the median of these runs of the tool-call program. */
const THROUGHPUT_RUNS = 3;
const TARGETS = { baselineRatio: 1.5, workerP50Ms: 5, callsPerSecond: 5000 };

const programs = {
  python: {
    empty: 'return 1',
    calls: `for i in range(${TOOL_CALLS}):\n    await tools.echo({"i": i})\nreturn ${TOOL_CALLS}`,
  },
  typescript: {
    empty: 'return 1;',
    calls: `for (let i = 0; i < ${TOOL_CALLS}; i++) await tools.echo({ i });\nreturn ${TOOL_CALLS};`,
  },
};

const bindings = [
  {
    name: 'tools',
    functions: new Map([['echo', async (args) => args]]),
    errorClass: { name: 'ToolCallError', memberProperty: 'toolName' },
  },
];

export default async function bench(log) {
  if (!Number.isInteger(RUNS) || RUNS < 1) {
    throw new Error(`CONCORD_BENCH_RUNS must be a positive integer, not ${process.env.CONCORD_BENCH_RUNS}`);
  }
  const { createWorkerRuntime } = await built('runtimes/worker/index.js');
  const { createCpythonRuntime } = await built('runtimes/cpython/index.js');
  const { createPyodideRuntime } = await built('runtimes/pyodide/index.js');
  const { CPYTHON_IMAGES } = await built('runtimes/cpython/images.js');
  const { processContainment, resolveInterpreter } = await built('runtimes/cpython/process-launcher.js');

  log(
    `${RUNS} timed runs each after ${WARMUP_RUNS} warm-up runs, each baseline interleaved run by run with its runtime; ` +
      `throughput: median of ${THROUGHPUT_RUNS} runs of a program making ${TOOL_CALLS} sequential tool calls; ` +
      `load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`,
  );
  log(formatRow({ name: 'runtime', p50: 'p50 ms', p95: 'p95 ms', callsPerSecond: 'calls/s' }));
  const verdicts = [];
  const report = (measured) => {
    for (const row of measured.rows) log(formatRow(row));
    verdicts.push(...measured.verdicts);
  };

  report(await measure({ name: 'worker', language: 'typescript', create: () => createWorkerRuntime() }));

  // The interpreter the process isolation itself resolves `python3` to, so the ratio compares like with like.
  const python = await resolveInterpreter('python3', processContainment().runUids?.first);
  report(
    await measure({
      name: 'python-process',
      language: 'python',
      create: () => createCpythonRuntime({ isolation: 'process' }),
      baseline: { name: `bare spawn ${python} -I -S -c pass`, run: () => command(python, ['-I', '-S', '-c', 'pass']) },
    }),
  );

  const docker = await dockerImages(CPYTHON_IMAGES);
  if (docker.reason !== undefined) log(`python-container: skipped: ${docker.reason}`);
  for (const image of docker.images) {
    report(
      await withIdleContainer(image.tag, (container) =>
        measure({
          name: `python-container:${image.python}`,
          language: 'python',
          create: () => createCpythonRuntime({ isolation: 'container', image: image.tag, fallback: 'error' }),
          baseline: {
            name: `bare docker exec (${image.tag}) python3 -I -S -c pass`,
            run: () => command('docker', ['exec', container, 'python3', '-I', '-S', '-c', 'pass']),
          },
        }),
      ),
    );
  }

  report(await measure({ name: 'pyodide', language: 'python', create: () => createPyodideRuntime() }));

  log('');
  for (const line of verdicts) log(line);
}

/**
 * Warm latency of the empty program (with the baseline timed between runs, so both see the same load), then
 * the rate of tool calls from inside one program. Returns the table rows and the verdicts against the targets.
 */
async function measure({ name, language, create, baseline }) {
  let runtime;
  try {
    runtime = await create();
    const run = async (program, expected) => {
      const result = await runtime.run({ program, bindings });
      if (result.error !== undefined || result.value !== expected) {
        throw new Error(`unexpected result ${JSON.stringify(result.error ?? result.value)}`);
      }
    };
    const empty = () => run(programs[language].empty, 1);
    for (let i = 0; i < WARMUP_RUNS; i++) {
      await empty();
      await baseline?.run();
    }
    const runtimeSamples = [];
    const baselineSamples = [];
    for (let i = 0; i < RUNS; i++) {
      if (baseline !== undefined) baselineSamples.push(await timed(baseline.run));
      runtimeSamples.push(await timed(empty));
    }
    await run(programs[language].calls, TOOL_CALLS);
    const callRuns = [];
    for (let i = 0; i < THROUGHPUT_RUNS; i++)
      callRuns.push(await timed(() => run(programs[language].calls, TOOL_CALLS)));

    const latency = summarize(runtimeSamples);
    const callsPerSecond = Math.round(TOOL_CALLS / (summarize(callRuns).p50 / 1000));
    const notice = runtime.notice === undefined ? '' : ` (${runtime.notice})`;
    const rows = [{ name: `${name}${notice}`, ...latency, callsPerSecond }];
    const verdicts = [];
    if (baseline !== undefined) {
      const bare = summarize(baselineSamples);
      rows.push({ name: `  ${baseline.name}`, ...bare });
      const ratio = latency.p50 / bare.p50;
      verdicts.push(
        `${name}: p50 ${ratio.toFixed(2)}× its bare baseline (target ≤ ${TARGETS.baselineRatio}×) ${verdict(ratio <= TARGETS.baselineRatio)}`,
      );
      const met = callsPerSecond >= TARGETS.callsPerSecond;
      verdicts.push(
        `${name}: ${callsPerSecond} tool calls/s over the CPython channel (target ≥ ${TARGETS.callsPerSecond}) ${verdict(met)}`,
      );
    }
    if (name === 'worker') {
      const met = latency.p50 <= TARGETS.workerP50Ms;
      verdicts.push(`worker: p50 ${latency.p50.toFixed(2)} ms (target ≤ ${TARGETS.workerP50Ms} ms) ${verdict(met)}`);
    }
    return { rows, verdicts };
  } catch (error) {
    const reason = String(error?.message ?? error).split('\n')[0];
    return { rows: [{ name, failed: reason }], verdicts: [`${name}: not measured: ${reason}`] };
  } finally {
    await runtime?.dispose();
  }
}

function verdict(met) {
  return met ? 'met' : 'MISSED';
}

// ---- baselines ----

/** Runtime images present in an answering engine, or why there are none. */
async function dockerImages(supported) {
  try {
    await exec('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 20_000 });
  } catch {
    return { images: [], reason: 'no Docker engine answers (npm run provision installs and starts one)' };
  }
  const images = [];
  for (const image of supported) {
    try {
      await exec('docker', ['image', 'inspect', image.tag]);
      images.push(image);
    } catch {
      // Not built: reported below when none is.
    }
  }
  return images.length > 0 ? { images } : { images, reason: 'no concord-cpython image is built (npm run provision)' };
}

/** An idle container of the image, no network, for the bare `docker exec` baseline; removed afterwards. */
async function withIdleContainer(tag, use) {
  const { stdout } = await exec('docker', [
    'run',
    '--detach',
    '--rm',
    '--network',
    'none',
    '--read-only',
    '--user',
    '65534:65534',
    tag,
    'sleep',
    'infinity',
  ]);
  const container = stdout.trim();
  try {
    return await use(container);
  } finally {
    await exec('docker', ['rm', '--force', container]).catch(() => undefined);
  }
}

function command(file, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${file} ${args.join(' ')} exited ${code}`)),
    );
  });
}

// ---- numbers ----

async function timed(action) {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  // Nearest rank: the smallest sample with at least p of the samples at or below it.
  const percentile = (p) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
  return { p50: percentile(0.5), p95: percentile(0.95) };
}

function formatRow(row) {
  if (row.failed !== undefined) return `${row.name.padEnd(60)} failed: ${row.failed}`;
  const cell = (value, digits) => (typeof value === 'number' ? value.toFixed(digits) : (value ?? '-'));
  return `${row.name.padEnd(60)} ${cell(row.p50, 2).padStart(8)} ${cell(row.p95, 2).padStart(8)} ${cell(row.callsPerSecond, 0).padStart(9)}`;
}
