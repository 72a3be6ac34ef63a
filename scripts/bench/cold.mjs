// `npm run bench -- cold`: what a fresh CI runner pays. First the default install (`npm pack`, installed into
// an empty project, as harness/install-size.test.ts measures it). Then a gate on a fresh checkout against the
// next gate on unchanged SDKs: a project of 3 scenarios (the stock scenario of harness/project/stock-project.ts,
// each on a plugin with a tool set of its own, so its own SDK) × 4 runtimes is written to a scratch folder and
// recorded once (untimed, without the cache); then `concord gate` runs twice as separate processes, as two CI
// runs would: the first with an empty .concord/cache, the second reusing it. Prints both wall times, their
// ratio (goal: second ≤ 0.4 × first) and the checks phase of the first Python pair in each (goal: ≤ 8 s in
// the first, cold one).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { built } from './support/built.mjs';

const checkout = fileURLToPath(new URL('../../', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/concord.mjs', import.meta.url));
const TARGET_RATIO = 0.4;
/** The checks phase of the first Python pair of a cold gate (empty cache, nothing started) on 2 cores. */
const TARGET_COLD_CHECKS_MS = 8000;
const SCENARIOS = ['shop', 'warehouse', 'ledger'];

/** A tool plugin of the project's own: `count_items` plus a tool only this scenario has. */
const plugin = (name) => `export default {
  name: '${name}',
  inject: ['tools'],
  apply(ctx) {
    ctx.tools.register({ name: 'count_items', description: 'Counts the items in the ${name}.', parameters: { type: 'object', properties: {} }, execute: async () => ({ count: 3 }) });
    ctx.tools.register({
      name: '${name}_report',
      description: 'A report about the ${name}, by section.',
      parameters: { type: 'object', properties: { section: { type: 'string', enum: ['summary', 'detail'] }, limit: { type: 'integer' } }, required: ['section'] },
      output: { type: 'object', properties: { lines: { type: 'array', items: { type: 'string' } } }, required: ['lines'] },
      execute: async () => ({ lines: [] }),
    });
  },
};
`;

function gate(root, extra) {
  const env = { ...process.env, NO_COLOR: '1' };
  delete env.CI;
  delete env.CONCORD_NO_CACHE;
  const started = performance.now();
  const run = spawnSync(process.execPath, [bin, 'gate', '--root', root, ...extra], {
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  if (run.status !== 0)
    throw new Error(`concord gate ${extra.join(' ')} exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
  const firstPython = run.stdout.split('\n').find((line) => / × python {2}/.test(line));
  const checks = Number(/checks (\d+) ms/.exec(firstPython ?? '')?.[1] ?? NaN);
  const pythonBoot = Number(/boot (\d+) ms/.exec(firstPython ?? '')?.[1] ?? 0);
  const firstPyodide = run.stdout.split('\n').find((line) => / × pyodide {2}/.test(line));
  const boot = Number(/boot (\d+) ms/.exec(firstPyodide ?? '')?.[1] ?? 0);
  const cache = run.stdout.split('\n').find((line) => line.startsWith('verdict cache:')) ?? 'verdict cache: (no line)';
  return { ms, checks, pythonBoot, boot, cache };
}

/** The default install of the packed tarball into an empty project: megabytes and packages, or why not measured. */
function installSize(dir) {
  const pack = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
    cwd: checkout,
    encoding: 'utf8',
  });
  if (pack.status !== 0) return `not measured: npm pack failed: ${pack.stderr.trim()}`;
  const tarball = join(dir, JSON.parse(pack.stdout)[0].filename);
  const project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fresh', version: '1.0.0', private: true }));
  const started = performance.now();
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: project, encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (install.status !== 0) return `not measured: npm install failed: ${install.stderr.trim().split('\n').at(-1)}`;
  const kilobytes = Number(
    spawnSync('du', ['-sk', join(project, 'node_modules')], { encoding: 'utf8' }).stdout.split('\t')[0],
  );
  const packages =
    spawnSync('npm', ['ls', '--all', '--parseable'], { cwd: project, encoding: 'utf8' }).stdout.trim().split('\n')
      .length - 1;
  return `${(kilobytes / 1024).toFixed(1)} MB in ${packages} packages (npm install took ${seconds.toFixed(1)} s)`;
}

export default async function bench(log) {
  const { stockScenario } = await built('harness/project/stock-project.js');
  const { containerUnavailable } = await built('runtimes/seam/docker-engine.js');
  const { CPYTHON_IMAGES } = await built('runtimes/cpython/images.js');
  const noContainer = await containerUnavailable(CPYTHON_IMAGES[0].tag);
  const runtimes = ['typescript', 'python', 'pyodide', ...(noContainer === undefined ? ['python-container'] : [])];
  const installDir = await mkdtemp(join(os.tmpdir(), 'concord-bench-install-'));
  try {
    log(`install (npm pack, default): ${installSize(installDir)}`);
  } finally {
    await rm(installDir, { recursive: true, force: true });
  }
  const root = await mkdtemp(join(os.tmpdir(), 'concord-bench-cold-'));
  try {
    await mkdir(join(root, 'scenarios', 'plugins'), { recursive: true });
    await writeFile(join(root, 'concord.config.yml'), 'floor: "3.9"\n');
    for (const name of SCENARIOS) {
      await writeFile(
        join(root, 'scenarios', `${name}.yml`),
        stockScenario(name, `[${runtimes.join(', ')}]`, `./plugins/${name}.mjs`),
      );
      await writeFile(join(root, 'scenarios', 'plugins', `${name}.mjs`), plugin(name));
    }
    gate(root, ['--update=all', '--no-cache']);
    await rm(join(root, '.concord'), { recursive: true, force: true });

    const loadBefore = os.loadavg()[0];
    const first = gate(root, []);
    const second = gate(root, []);
    const ratio = second.ms / first.ms;
    log(
      `project: ${SCENARIOS.length} scenarios × ${runtimes.length} runtimes (${runtimes.join(', ')})${noContainer ? `; no container runtime: ${noContainer}` : ''}; load average ${loadBefore.toFixed(1)} before, ${os.loadavg()[0].toFixed(1)} after, on ${os.availableParallelism()} cores`,
    );
    const line = (run) =>
      `${(run.ms / 1000).toFixed(1)} s · checks of the first Python pair ${(run.checks / 1000).toFixed(1)} s (it waited ${(run.pythonBoot / 1000).toFixed(1)} s for the stub matrix's interpreters to start) · Pyodide boot ${(run.boot / 1000).toFixed(1)} s · ${run.cache}`;
    log(`first gate  (empty .concord/cache): ${line(first)}`);
    log(`second gate (unchanged SDKs):       ${line(second)}`);
    log(`${ratio <= TARGET_RATIO ? 'ok  ' : 'MISS'} second / first: ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO})`);
    log(
      `${first.checks <= TARGET_COLD_CHECKS_MS ? 'ok  ' : 'MISS'} checks of the first Python pair, cold: ${(first.checks / 1000).toFixed(1)} s (target ≤ ${TARGET_COLD_CHECKS_MS / 1000} s)`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
