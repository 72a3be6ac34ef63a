import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sourceAsset } from '../../../runtimes/seam/package-root.js';

const cli = (...args: string[]) =>
  spawnSync(process.execPath, [sourceAsset('bin/concord.mjs'), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
    env: { ...process.env, CI: '' },
  });

describe('concord gate and review on the command line', () => {
  it('explain themselves with --help', () => {
    const gate = cli('gate', '--help');
    expect(gate.status).toBe(0);
    for (const flag of ['--scenario', '--runtime', '--shard', '--update', '--reporter'])
      expect(gate.stdout).toContain(flag);
    const review = cli('review', '--help');
    expect(review.status).toBe(0);
    for (const flag of ['--accept-all', '--reject-all']) expect(review.stdout).toContain(flag);
  });

  it('refuse bad selections with exit 2, naming the accepted form', () => {
    const shard = cli('gate', '--shard', '3/2');
    expect(shard.status).toBe(2);
    expect(shard.stderr).toContain('--shard 3/2: expected i/n with 1 ≤ i ≤ n');
    const runtime = cli('gate', '--runtime', 'cobol');
    expect(runtime.status).toBe(2);
    expect(runtime.stderr).toContain(
      '--runtime cobol: unknown runtime (known: typescript, python, pyodide, python-container)',
    );
    const scenario = cli('gate', '--scenario', 'no-such-scenario');
    expect(scenario.status).toBe(2);
    expect(scenario.stderr).toContain('--scenario no-such-scenario: no such scenario');
  });

  it('review asks for --accept-all or --reject-all when there is no terminal', () => {
    const review = cli('review');
    expect(review.status).toBe(2);
    expect(review.stderr).toContain('no terminal to ask on; pass --accept-all or --reject-all');
  });
});
