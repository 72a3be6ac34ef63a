import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot, sourceAsset } from '../../runtimes/seam/package-root.js';
import { projectAt } from '../project/root.js';
import { stockScenario, writeStockProject } from '../project/stock-project.js';
import { concordIn } from '../test/concord-cli.js';
import { keepCache, seedCache } from '../test/warm-cache.js';
import { type GateOptions, runGate } from './gate.js';

/** A closed port on loopback: no Docker engine answers there. */
const NOWHERE = 'tcp://127.0.0.1:9';

// One scenario on the fastest runtime: no Python pair, so the renderer floor has nothing to judge and the
// interpreters stay asleep; the TypeScript probe still runs once.
let work = '';
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'concord-floor-'));
  await seedCache(work);
});
afterAll(async () => {
  await keepCache(work);
  await rm(work, { recursive: true, force: true });
});

const gate = (overrides: Partial<GateOptions>, lines: string[]) =>
  runGate({
    project: projectAt(packageRoot()),
    pendingRoot: join(work, 'pending'),
    reportRoot: work,
    selection: { scenarios: ['mode-both'], runtimes: ['typescript'] },
    update: 'none',
    ci: true,
    // Not about a cold start: the verdicts earlier gates of the run computed are reused from a copy.
    cache: true,
    cacheRoot: work,
    color: false,
    out: (line) => lines.push(line),
    ...overrides,
  });

describe('the run-level steps in the gate', () => {
  it('passes on the default floor, probes TypeScript once, and writes .concord/report.md with the verdict', {
    timeout: 120_000,
  }, async () => {
    const lines: string[] = [];
    const result = await gate({}, lines);
    expect(result.runFindings).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.probes.map((p) => [p.language, p.scenario, p.runtime])).toEqual([
      ['typescript', 'mode-both', 'typescript'],
    ]);
    expect(lines).toContainEqual(
      expect.stringMatching(/^renderer-floor: no Python app selected · ✓ probe typescript \d+ ms$/),
    );
    expect(result.reportFile).toBe(join(work, '.concord', 'report.md'));
    expect(lines).toContain(
      // Named from the project root, where it lies.
      "report: .concord/report.md (the stub-validity matrix, the probe's verdict and every finding)",
    );
    const report = await readFile(result.reportFile, 'utf8');
    expect(report).toContain(`Run \`${result.runId}\` · floor CPython 3.9 · 1 scenario × runtime pair(s): 1 pass.`);
    expect(report).toMatch(
      /\| typescript \| mode-both × typescript \| \d+ \| ✓ passes \| ✓ unique, each tool reachable once \| \d+ ms \|/,
    );
    expect(report).toMatch(/\| tsc \| the TypeScript compiler, strict \| ✓ \|/);
    expect(report).toContain('No check found anything.');
  });
});

describe('concord gate on a renderer not pinned to the floor', () => {
  // A project of a user's own whose one scenario asks the reference registry to write Python for 3.15 while
  // the floor is 3.9. Its SDK (one tool) and the probe's unpinned SDK are this test's alone, so every
  // interpreter judges them cold: the finding is read from the SDK's text whatever interpreters answer, so no
  // Docker engine is offered and the local interpreters and Pyodide are the ones that do.
  let project = '';
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'concord-floor-unpinned-'));
    // About the renderer, not plugin loading: the plugin is JavaScript, so the gate does not load tsx.
    await writeStockProject(project, 'stock', { javascript: true });
    await writeFile(
      join(project, 'scenarios', 'stock.yml'),
      stockScenario('stock', '[python]', './plugins/stock.mjs').replace(
        'config: { mode: code }',
        "config: { mode: code, pythonFloor: '3.15' }",
      ),
    );
    // Not about a cold start: the gate starts from the verdicts (and the Pyodide snapshot) earlier gates of the run
    // computed.
    await seedCache(project);
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  const cli = concordIn(() => project, 300_000);

  it('exits 1 naming the scenario, the bare names with line and column, and the report', { timeout: 300_000 }, () => {
    const run = cli({ CI: '1', DOCKER_HOST: NOWHERE }, 'gate', '--runtime', 'python');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(
      /error renderer-floor: stock \(\S+stock\.yml, on python\): the Python renderer is not pinned to the floor 3\.9: it writes \S+_unicode_14_0 \(line \d+, column 15\)/,
    );
    expect(run.stdout).toContain('report: .concord/report.md (');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('gate: FAILED');
  });
});

describe('concord gate --floor', () => {
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [sourceAsset('bin/concord.mjs'), 'gate', ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
      env: { ...process.env, CI: '1' },
    });

  it('is explained by --help, and refuses an unsupported floor with exit 2, naming the supported versions', () => {
    expect(cli('--help').stdout).toMatch(/--floor <3\.X>\s+oldest CPython the Python SDK must serve/);
    for (const floor of ['3.7', 'latest']) {
      const run = cli('--floor', floor);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(
        `--floor ${floor}: unsupported CPython version (supported: 3.8, 3.9, 3.10, 3.11, 3.12, 3.13, 3.14, 3.15)`,
      );
    }
  });
});
