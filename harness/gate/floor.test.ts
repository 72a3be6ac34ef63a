import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot, sourceAsset } from '../../runtimes/seam/package-root.js';
import { plantedCopy, type PlantedCopy } from '../probe/test/planted-copy.js';
import { runGate, type GateOptions } from './gate.js';
import { projectAt } from '../project/root.js';
import { keepCache, seedCache } from '../test/warm-cache.js';

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
  it('passes on the default floor, probes TypeScript once, and writes .concord/report.md with the verdict', { timeout: 120_000 }, async () => {
    const lines: string[] = [];
    const result = await gate({}, lines);
    expect(result.runFindings).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.probes.map((p) => [p.language, p.scenario, p.runtime])).toEqual([['typescript', 'mode-both', 'typescript']]);
    expect(lines).toContainEqual(expect.stringMatching(/^renderer-floor: no Python app selected · ✓ probe typescript \d+ ms$/));
    expect(result.reportFile).toBe(join(work, '.concord', 'report.md'));
    expect(lines).toContain(`report: ${result.reportFile} (the stub-validity matrix, the probe's verdict and every finding)`);
    const report = await readFile(result.reportFile, 'utf8');
    expect(report).toContain(`Run \`${result.runId}\` · floor CPython 3.9 · 1 scenario × runtime pair(s): 1 pass.`);
    expect(report).toMatch(/\| typescript \| mode-both × typescript \| \d+ \| ✓ passes \| ✓ unique, each tool reachable once \| \d+ ms \|/);
    expect(report).toMatch(/\| tsc \| the TypeScript compiler, strict \| ✓ \|/);
    expect(report).toContain('No check found anything.');
  });
});

describe('concord gate on a renderer not pinned to the floor', () => {
  let copy: PlantedCopy;
  beforeAll(async () => {
    // The copy's mode-both scenario asks the reference registry to write Python for 3.15 while the floor is 3.9.
    copy = await plantedCopy([{ file: 'scenarios/mode-both.yml', from: '      mode: both\n', to: "      mode: both\n      pythonFloor: '3.15'\n" }]);
    // Not about a cold start: the copy's gate starts from the verdicts earlier gates of the run computed.
    await seedCache(copy.root);
  });
  afterAll(() => copy.dispose());

  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(copy.root, 'bin', 'concord.mjs'), 'gate', ...args], {
      cwd: copy.root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
      env: { ...process.env, CI: '1' },
    });

  it('exits 1 naming the scenario, the bare names with line and column, and the report', { timeout: 300_000 }, () => {
    const run = cli('--scenario', 'mode-both', '--runtime', 'python');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/error renderer-floor: mode-both \(\S+mode-both\.yml, on python\): the Python renderer is not pinned to the floor 3\.9: it writes \S+_unicode_14_0 \(line \d+, column 15\)/);
    expect(run.stdout).toContain(`report: ${join(copy.root, '.concord', 'report.md')}`);
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
      expect(run.stderr).toContain(`--floor ${floor}: unsupported CPython version (supported: 3.8, 3.9, 3.10, 3.11, 3.12, 3.13, 3.14, 3.15)`);
    }
  });
});
