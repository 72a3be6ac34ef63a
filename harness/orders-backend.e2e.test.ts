import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { addedLines } from '../codemode/sdk/test/added-lines.js';
import { Host } from '../test/host-requirements.js';
import type { GateResults } from './results/format.js';
import { installedExample } from './test/installed-example.js';

/**
 * examples/orders: its own plugin with five tools that each carry `$defs.Money`, three scenarios, every
 * runtime. Its committed transcripts hold the time place_order stamps as a placeholder; a scenario that polls
 * until the time budget stops it is refused as unstable; a pull request adds a tool that sorts first and no
 * scenario calls, with arguments and a result of its own (a structure it shared with a tool it sorts before would
 * take its name): the SDKs change by that tool's lines alone, Money stays one Python class, the tool is listed
 * as uncalled, and the gate says what the change costs each request. The gate runs from a copy outside this
 * repository with concord installed from its packed tarball, as the snapshots were recorded.
 */
const SCENARIOS = ['checkout', 'order-status', 'refund'];
const ADDED_TOOL = `  {
    name: 'add_discount',
    description: 'Takes a share off an open order and says how much it saved.',
    parameters: withMoney({ id: { type: 'string' }, percent: { type: 'integer', minimum: 1, maximum: 50 } }, ['id', 'percent']),
    output: withMoney({ id: { type: 'string' }, saved: money }, ['id', 'saved']),
    async execute(args: unknown) {
      const order = orderOf(args);
      return { id: order.id, saved: { ...order.total, amount: 0 } };
    },
  },
`;

/** Polls an open order until the 300 ms budget stops the program: how many calls it makes depends on load. */
const POLLING_SCENARIO = `name: polling
description: The agent waits for an open order to ship, polling it until the time budget runs out.
runtime:
  timeoutMs: 300
composition:
  - id: tools
    plugin: concord/tools
    config:
      mode: code
  - id: orders
    plugin: ../src/plugins/orders.ts
  - id: agent
    plugin: concord/agent
    config:
      persona: You answer questions about a shop's orders.
script:
  - user: Tell me when ord-1002 ships.
  - assistant:
      run_code:
        description: Poll the order until it ships
        typescript: |
          for (;;) {
            const order = await tools.get_order({ id: 'ord-1002' });
            if (order.status === 'shipped') return order;
          }
        python: |
          while True:
              order = await tools.get_order({"id": "ord-1002"})
              if order["status"] == "shipped":
                  return order
  - final: ord-1002 has not shipped yet.
expect:
  runs: [timeout]
`;

const example = installedExample('orders');

/**
 * `concord gate` in CI (by default on the TypeScript worker and the local CPython): its output lines, its
 * results file and the pull-request summary it appends. `local` runs it as on a developer's machine instead,
 * with the arguments given.
 */
async function gate(
  runtimes: readonly string[] = ['typescript', 'python'],
  local?: readonly string[],
): Promise<{ status: number | null; lines: string[]; results: GateResults; summary: string }> {
  const file = join(example.root, '.concord', 'results.json');
  const summaryFile = join(example.root, '.concord', 'step-summary.md');
  await rm(summaryFile, { force: true });
  const run = spawnSync(
    process.execPath,
    [example.bin, 'gate', '--runtime', ...runtimes, '--results', file, ...(local ?? [])],
    {
      cwd: example.root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 600_000,
      env: { ...process.env, CI: local ? '' : 'true', NO_COLOR: '1', GITHUB_STEP_SUMMARY: summaryFile },
    },
  );
  const results = JSON.parse(
    await readFile(file, 'utf8').catch(() => `{"pairs":[],"error":${JSON.stringify(run.stdout + run.stderr)}}`),
  ) as GateResults;
  return {
    status: run.status,
    lines: (run.stdout + run.stderr).trimEnd().split('\n'),
    results,
    summary: await readFile(summaryFile, 'utf8').catch(() => ''),
  };
}

/** What a reviewer reads of a pull request's verdict, in lines: the CI output, and the pull-request summary. */
const VERDICT_BUDGET = 250;

describe('the orders backend', () => {
  it('passes on its committed snapshots, its Python SDK declaring Money once', { timeout: 600_000 }, async () => {
    const { status, lines, results } = await gate();
    expect(
      results.pairs.map((r) => `${r.scenario} × ${r.runtime}: ${r.status}`),
      lines.join('\n'),
    ).toEqual(SCENARIOS.flatMap((s) => [`${s} × typescript: pass`, `${s} × python: pass`]));
    expect(status, lines.join('\n')).toBe(0);
    const python = await readFile(join(example.root, 'snapshots', 'checkout', 'python', 'tools-sdk.py'), 'utf8');
    expect(python.match(/^class Money\(/gm)).toHaveLength(1);
    expect(python).not.toMatch(/Money\w/);
    expect(lines).toContain('SDK cost (o200k_base tokens, sent with every request):');
    expect(
      lines.some((line) =>
        /^ {2}python: [\d,]+ tokens · [\d,]+ bytes in 3 scenario\(s\), 15 tools, [\d,]+ per tool \(unchanged\)$/.test(
          line,
        ),
      ),
    ).toBe(true);
    // place_order answers with the real clock's time: the committed transcripts hold a numbered placeholder,
    // so the run agrees with them although the clock moved on.
    for (const runtime of ['typescript', 'python']) {
      const transcript = await readFile(
        join(example.root, 'snapshots', 'checkout', runtime, 'transcript.yaml'),
        'utf8',
      );
      expect(transcript).toContain('placedAt: <timestamp-1>');
      expect(transcript).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    }
  });

  it('refuses a scenario that polls an order until the time budget stops it as unstable with --update=new, writing nothing for it', {
    timeout: 600_000,
  }, async () => {
    const scenario = join(example.root, 'scenarios', 'polling.yml');
    await writeFile(scenario, POLLING_SCENARIO);
    try {
      // Only the new scenario: the committed ones were judged by the gate above, and would add six passing
      // pairs to a run that is about the two it refuses.
      const { status, lines } = await gate(['typescript', 'python'], ['--scenario', 'polling', '--update=new']);
      const output = lines.join('\n');
      expect(status, output).toBe(1);
      for (const runtime of ['typescript', 'python'])
        expect(output).toMatch(new RegExp(`^≈ unstable +polling × ${runtime} `, 'm'));
      expect(output).toMatch(/^ {4}first difference: transcript\.yaml line \d+: /m);
      expect(output).toContain('hint: calls cut off by the time budget (timeoutMs 300)');
      expect(output).toContain(
        '2 run(s): 0 pass, 0 updated, 0 mismatch, 2 unstable, 0 failed, 0 skipped; 0 obsolete folder(s)',
      );
      expect(existsSync(join(example.root, 'snapshots', 'polling'))).toBe(false);
      const pending = join(example.root, '.concord', 'pending');
      expect(existsSync(pending) ? (await readdir(pending)).filter((name) => !name.startsWith('.')) : []).toEqual([]);
    } finally {
      await rm(scenario);
    }
  });
});

// A pull request adds a tool that sorts first. The committed snapshots cover all four runtimes, so with Docker
// the one CI gate of the pull request runs them all: one diff per language however many runtimes and
// scenarios read it, and a verdict that fits the budget. Without Docker (and outside CI, where it may be
// missing) the gate runs the TypeScript worker and the local CPython.
const docker = await Host.with('docker');
const EVERY_RUNTIME = ['typescript', 'python', 'pyodide', 'python-container'];

describe('the orders pull request', () => {
  let pullRequest: Awaited<ReturnType<typeof gate>>;
  beforeAll(async () => {
    const plugin = join(example.root, 'src', 'plugins', 'orders.ts');
    await writeFile(
      plugin,
      (await readFile(plugin, 'utf8')).replace('const tools = [\n', `const tools = [\n${ADDED_TOOL}`),
    );
    const config = join(example.root, 'concord.config.yml');
    await writeFile(
      config,
      (await readFile(config, 'utf8')).replace('sdkBudget:\n', 'sdkBudget:\n  maxGrowthTokens: 10\n'),
    );
    pullRequest = await gate(docker.missing === undefined ? EVERY_RUNTIME : ['typescript', 'python']);
  }, 900_000);

  it("shows it as that tool's lines alone on the TypeScript worker and the local CPython, with what it costs", async () => {
    const { status, lines, results } = pullRequest;
    expect(status, lines.join('\n')).toBe(1);
    const encoder = new Tiktoken(o200k);
    const tokens = (text: string) => encoder.encode(text, [], []).length;
    let growth = 0;
    let before = 0;
    for (const [runtime, file] of [
      ['python', 'tools-sdk.py'],
      ['typescript', 'tools-sdk.ts'],
    ] as const) {
      for (const scenario of SCENARIOS) {
        const pair = results.pairs.find((r) => r.scenario === scenario && r.runtime === runtime)!;
        const verdict = pair.verdicts.find((v) => v.path === `${scenario}/${runtime}/${file}`)!;
        expect(verdict.status).toBe('changed');
        const committed = await readFile(join(example.root, 'snapshots', scenario, runtime, file), 'utf8');
        const added = addedLines(committed, verdict.proposed!);
        // Nothing removed or renamed: every committed line is still there, in order.
        expect(added, `${scenario} ${file}`).toBeDefined();
        const declared = added!.filter((line) => /^(class|type) /.test(line));
        expect(declared.length).toBeGreaterThan(0);
        for (const line of declared) expect(line).toMatch(/^(class _?AddDiscount\w+\(|type AddDiscount\w+ = )/);
        expect(added!.some((line) => line.includes('add_discount('))).toBe(true);
        if (runtime === 'python') {
          expect(verdict.proposed!.match(/^class Money\(/gm)).toHaveLength(1);
          growth += tokens(verdict.proposed!) - tokens(committed);
          before += tokens(committed);
        }
      }
    }
    const percent = ((growth / before) * 100).toFixed(1);
    const total = lines.find((line) => line.startsWith('  python: '));
    expect(total, lines.join('\n')).toMatch(
      new RegExp(
        `in 3 scenario\\(s\\), 18 tools, [\\d,]+ per tool \\(\\+${growth.toLocaleString('en-US')} tokens, \\+${percent.replace('.', '\\.')}%\\)$`,
      ),
    );
    expect(
      lines.filter((line) => /^ {4}(checkout|order-status|refund): .*\(\+[\d,]+ tokens, \+[\d.]+%\)$/.test(line)),
    ).toHaveLength(6);
    expect(lines.join('\n').match(/^error sdk-budget: the python SDK of /gm)).toHaveLength(3);
    // No scenario calls the new tool: the gate says so, per language.
    for (const language of ['typescript', 'python'])
      expect(lines).toContain(
        `warning tool-coverage: ${language}: 1 registered tool(s) no scenario's program called (of 3 scenario(s)): add_discount`,
      );
    expect(lines.join('\n')).toMatch(
      new RegExp(
        `the python SDK of checkout grew by ${(growth / 3).toLocaleString('en-US')} tokens \\([\\d,]+ → [\\d,]+\\), ${(growth / 3 - 10).toLocaleString('en-US')} over sdkBudget\\.maxGrowthTokens \\(10\\)`,
      ),
    );
  });

  docker.it(
    `reads on every runtime in at most ${VERDICT_BUDGET} lines of CI output and of pull-request summary, each distinct diff once`,
    {},
    () => {
      const { status, lines, summary } = pullRequest;
      const output = lines.join('\n');
      expect(status, output).toBe(1);
      expect(output).toContain('2 distinct change(s) in 12 file(s):');
      expect(output).toContain(
        'the same change in 9 files: snapshots/{checkout,order-status,refund}/{python,pyodide,python-container}/tools-sdk.py',
      );
      expect(output).toContain(
        '  ✗ checkout, order-status, refund × python, pyodide, python-container: mismatch — tools-sdk.py changed [change 2]',
      );
      expect(output).toMatch(/^warning tool-coverage: python: .*add_discount$/m);
      expect(summary).toContain(
        '- **checkout, order-status, refund × python, pyodide, python-container**: mismatch (`tools-sdk.py` change 2)',
      );
      // The stub-validity rows come in the run's pair order, whichever interpreter answered first.
      const stubs = summary.slice(summary.indexOf('<summary>Stub validity</summary>')).split('\n');
      const rows = stubs
        .filter((line) => /^\| (checkout|order-status|refund) \| /.test(line))
        .map((line) => line.split(' | ').slice(0, 2).join(' ').slice(2));
      expect(rows).toEqual(SCENARIOS.flatMap((s) => ['python', 'pyodide', 'python-container'].map((r) => `${s} ${r}`)));
      console.log(
        `orders pull request on every runtime: ${lines.length} line(s) of CI output, ${summary.trimEnd().split('\n').length} line(s) of pull-request summary`,
      );
      expect(lines.length, output).toBeLessThanOrEqual(VERDICT_BUDGET);
      expect(summary.trimEnd().split('\n').length, summary).toBeLessThanOrEqual(VERDICT_BUDGET);
    },
  );
});
