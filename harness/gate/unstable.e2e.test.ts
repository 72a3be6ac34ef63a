import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStockProject } from '../project/stock-project.js';
import { concordIn } from '../test/concord-cli.js';
import { keepCache, seedCache } from '../test/warm-cache.js';

/** A tool that reads a clock: every call answers something new, so no two runs of a program that polls it agree. */
const CLOCK_PLUGIN = `import type { RegisteredTool, ToolRegistryService } from 'concord/contract';
const status: RegisteredTool = {
  name: 'export_status',
  description: 'Whether the export finished, and when this was checked.',
  parameters: { type: 'object', properties: {} },
  execute: async () => ({ done: false, checkedAtUs: Number(process.hrtime.bigint() / 1000n) }),
};
export default { name: 'clock', inject: ['tools'], apply(ctx: { tools: ToolRegistryService }) { ctx.tools.register(status); } };
`;

/** A program that polls every 20 ms until the 300 ms budget stops it: how many calls it makes depends on load. */
const POLLING_SCENARIO = `name: polling
description: Polls an export until it is done.
runtimes: [typescript]
runtime:
  timeoutMs: 300
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: clock
    plugin: ./plugins/clock.ts
  - id: agent
    plugin: concord/agent
    config: { persona: You run exports. }
script:
  - user: Tell me when the export is done.
  - assistant:
      run_code:
        description: Poll the export
        typescript: |
          for (;;) {
            await tools.export_status({});
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        python: |
          while True:
              await tools.export_status({})
  - final: The export did not finish in time.
expect:
  runs: [timeout]
`;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-unstable-'));
  await writeStockProject(dir);
  await writeFile(join(dir, 'scenarios', 'polling.yml'), POLLING_SCENARIO);
  await writeFile(join(dir, 'scenarios', 'plugins', 'clock.ts'), CLOCK_PLUGIN);
  // Not about a cold start: the gates start from the verdicts (the stock SDK's, the probe's) earlier gates of
  // the run computed, and leave theirs.
  await seedCache(dir);
});
afterAll(async () => {
  await keepCache(dir);
  await rm(dir, { recursive: true, force: true });
});

const cli = concordIn(() => dir, 240_000);
const pendingRuns = async () =>
  existsSync(join(dir, '.concord', 'pending'))
    ? (await readdir(join(dir, '.concord', 'pending'))).filter((n) => !n.startsWith('.'))
    : [];

describe('a pair whose two runs differ is unstable, never blessed', () => {
  it('--update=new refuses the polling scenario as unstable, naming the first difference and the time budget, and writes the stable one', {
    timeout: 300_000,
  }, async () => {
    const run = cli({}, 'gate', '--update=new');
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/≈ unstable +polling × typescript/);
    expect(run.stdout).toContain(
      'two runs of this pair gave different transcripts, so neither is written or proposed as the snapshot',
    );
    expect(run.stdout).toMatch(
      /first difference: transcript\.yaml line \d+: ".*" in the first run, ".*" in the second/,
    );
    expect(run.stdout).toContain('hint: calls cut off by the time budget (timeoutMs 300)');
    expect(run.stdout).toContain('1 unstable');
    // Nothing written or proposed for the unstable pair; the deterministic one is written as usual.
    expect(existsSync(join(dir, 'snapshots', 'polling'))).toBe(false);
    expect(existsSync(join(dir, 'snapshots', 'stock', 'typescript', 'transcript.yaml'))).toBe(true);
    expect(await pendingRuns()).toEqual([]);
    const report = await readFile(join(dir, '.concord', 'report.md'), 'utf8');
    expect(report).toContain('polling × typescript: unstable');
  });

  it('in CI a mismatching pair is run again: a deterministic change stays a mismatch, the polling one is unstable in JUnit, results and merge', {
    timeout: 300_000,
  }, async () => {
    const sdk = join(dir, 'snapshots', 'stock', 'typescript', 'tools-sdk.ts');
    await writeFile(sdk, (await readFile(sdk, 'utf8')).replace('Counts the items', 'Tallies the items'));
    const results = join(dir, 'results.json');
    const run = cli({ CI: 'true' }, 'gate', '--reporter', 'junit', '--results', results);
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/✗ mismatch +stock × typescript/);
    expect(run.stdout).toMatch(/≈ unstable +polling × typescript/);
    const junit = await readFile(join(dir, '.concord', 'junit.xml'), 'utf8');
    expect(junit).toMatch(
      /<testcase classname="polling" name="typescript"[^>]*><failure message="unstable">two runs of this pair gave different transcripts/,
    );
    const pending = await pendingRuns();
    expect(pending).toHaveLength(1);
    const manifest = JSON.parse(
      await readFile(join(dir, '.concord', 'pending', pending[0]!, 'manifest.json'), 'utf8'),
    ) as { changes: Array<{ path: string }> };
    expect(manifest.changes.map((c) => c.path)).toEqual(['stock/typescript/tools-sdk.ts']);
    const pairs = (
      JSON.parse(await readFile(results, 'utf8')) as { pairs: Array<{ scenario: string; status: string }> }
    ).pairs;
    expect(pairs.map((p) => [p.scenario, p.status])).toEqual([
      ['polling', 'unstable'],
      ['stock', 'mismatch'],
    ]);
    const merged = cli({ CI: 'true' }, 'merge', results);
    expect(merged.status, merged.stdout + merged.stderr).toBe(1);
    expect(merged.stdout).toContain('1 mismatch, 1 unstable');
  });
});
