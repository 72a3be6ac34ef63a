import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot, sourceAsset } from '../../runtimes/seam/package-root.js';
import { runGate, type GateOptions } from './gate.js';

// One scenario on the fastest runtime: the floor is judged on the scenario's composition (its Python runtimes
// are declared even when only TypeScript runs), and an empty stub matrix keeps the interpreters asleep.
let work = '';
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'concord-floor-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

const gate = (overrides: Partial<GateOptions>, lines: string[]) =>
  runGate({
    root: packageRoot(),
    pendingRoot: join(work, 'pending'),
    reportRoot: work,
    selection: { scenarios: ['mode-both'], runtimes: ['typescript'] },
    update: 'none',
    ci: true,
    color: false,
    out: (line) => lines.push(line),
    ...overrides,
  });

const MISMATCH = "mode-both: the renderer writes the Python SDK for CPython 3.9, but the configured floor is 3.11; set pythonFloor: '3.11' in";

describe('the configured floor in the gate', () => {
  it('passes on the default floor and writes .concord/report.md, linked from the summary', { timeout: 120_000 }, async () => {
    const lines: string[] = [];
    const result = await gate({}, lines);
    expect(result.runFindings).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.reportFile).toBe(join(work, '.concord', 'report.md'));
    expect(lines).toContain(`report: ${result.reportFile} (the stub-validity matrix and every finding)`);
    const report = await readFile(result.reportFile, 'utf8');
    expect(report).toContain(`Run \`${result.runId}\` · floor CPython 3.9 · 1 scenario × runtime pair(s): 1 pass.`);
    expect(report).toContain('No check found anything.');
  });

  it('fails when the renderer floor differs from --floor, and says so in the summary and the report', { timeout: 120_000 }, async () => {
    const lines: string[] = [];
    const result = await gate({ floor: '3.11' }, lines);
    expect(result.results.map((r) => r.status)).toEqual(['pass']);
    expect(result.ok).toBe(false);
    expect(result.runFindings.map((f) => [f.check, f.severity])).toEqual([['renderer-floor', 'error']]);
    expect(lines.join('\n')).toContain(`error renderer-floor: ${MISMATCH} ${join(packageRoot(), 'scenarios', 'mode-both.yml')}:4 (entry "tools")`);
    expect(lines.at(-1)).toBe('gate: FAILED');
    const report = await readFile(result.reportFile, 'utf8');
    expect(report).toContain('floor CPython 3.11');
    expect(report).toContain(`- **error** \`renderer-floor\`: ${MISMATCH}`);
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

  it('exits 1 on a floor mismatch, printing the finding and the report path', { timeout: 120_000 }, () => {
    const run = cli('--floor', '3.11', '--scenario', 'mode-both', '--runtime', 'typescript');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`error renderer-floor: ${MISMATCH}`);
    expect(run.stdout).toContain(`report: ${join(packageRoot(), '.concord', 'report.md')}`);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('gate: FAILED');
  });
});
