// `npm run bench -- cold`: a gate on a fresh checkout against the next gate on unchanged SDKs. A project of
// 3 scenarios (each with its own tool set, so its own SDK) × 4 runtimes is written to a scratch folder and
// recorded once (untimed, without the cache); then `concord gate` runs twice as separate processes, as two CI
// runs would: the first with an empty .concord/cache, the second reusing it. Prints both wall times, their
// ratio (goal: second ≤ 0.4 × first) and the checks phase of the first Python pair in each.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/concord.mjs', import.meta.url));
const dist = new URL('../../dist/', import.meta.url);
const TARGET_RATIO = 0.4;
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

const scenario = (name, runtimes) => `name: ${name}
description: The model counts what the ${name} holds.
runtimes: [${runtimes.join(', ')}]
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: ${name}
    plugin: ./plugins/${name}.mjs
  - id: agent
    plugin: concord/agent
    config: { persona: You keep the ${name}. }
script:
  - user: How many items are there?
  - assistant:
      run_code:
        description: Count the items
        typescript: return await tools.count_items({});
        python: return await tools.count_items({})
  - final: Three.
`;

function gate(root, extra) {
  const env = { ...process.env, NO_COLOR: '1' };
  delete env.CI;
  delete env.CONCORD_NO_CACHE;
  const started = performance.now();
  const run = spawnSync(process.execPath, [bin, 'gate', '--root', root, ...extra], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`concord gate ${extra.join(' ')} exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
  const firstPython = run.stdout.split('\n').find((line) => / × python {2}/.test(line));
  const checks = Number(/checks (\d+) ms/.exec(firstPython ?? '')?.[1] ?? NaN);
  const cache = run.stdout.split('\n').find((line) => line.startsWith('verdict cache:')) ?? 'verdict cache: (no line)';
  return { ms, checks, cache };
}

export default async function bench(log) {
  const { containerUnavailable } = await import(new URL('runtimes/seam/docker-engine.js', dist).href);
  const { CPYTHON_IMAGES } = await import(new URL('runtimes/cpython/images.js', dist).href);
  const noContainer = await containerUnavailable(CPYTHON_IMAGES[0].tag);
  const runtimes = ['typescript', 'python', 'pyodide', ...(noContainer === undefined ? ['python-container'] : [])];
  const root = await mkdtemp(join(os.tmpdir(), 'concord-bench-cold-'));
  try {
    await mkdir(join(root, 'scenarios', 'plugins'), { recursive: true });
    await writeFile(join(root, 'concord.config.yml'), 'floor: "3.9"\n');
    for (const name of SCENARIOS) {
      await writeFile(join(root, 'scenarios', `${name}.yml`), scenario(name, runtimes));
      await writeFile(join(root, 'scenarios', 'plugins', `${name}.mjs`), plugin(name));
    }
    gate(root, ['--update=all', '--no-cache']);
    await rm(join(root, '.concord'), { recursive: true, force: true });

    const first = gate(root, []);
    const second = gate(root, []);
    const ratio = second.ms / first.ms;
    log(`project: ${SCENARIOS.length} scenarios × ${runtimes.length} runtimes (${runtimes.join(', ')})${noContainer ? `; no container runtime: ${noContainer}` : ''}; load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`);
    log(`first gate  (empty .concord/cache): ${(first.ms / 1000).toFixed(1)} s · checks of the first Python pair ${(first.checks / 1000).toFixed(1)} s · ${first.cache}`);
    log(`second gate (unchanged SDKs):       ${(second.ms / 1000).toFixed(1)} s · checks of the first Python pair ${(second.checks / 1000).toFixed(1)} s · ${second.cache}`);
    log(`${ratio <= TARGET_RATIO ? 'ok  ' : 'MISS'} second / first: ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO})`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
