import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { githubWorkflow } from './github-workflow.js';

interface Step {
  run?: string;
  uses?: string;
}

describe('the GitHub workflow concord init writes', () => {
  it('is the one docs/ci.md shows', async () => {
    const docs = await readFile(join(packageRoot(), 'docs/ci.md'), 'utf8');
    expect(docs).toContain('```yaml\n' + githubWorkflow(3) + '```');
  });

  it.each([1, 3, 5])('parses, names only real commands, and covers shards 1..%i', async (shards) => {
    const workflow = parse(githubWorkflow(shards)) as { jobs: Record<string, { steps: Step[]; strategy?: { matrix: { shard: number[] } } }> };
    expect(workflow.jobs.gate!.strategy!.matrix.shard).toEqual(Array.from({ length: shards }, (_, i) => i + 1));
    const main = await readFile(join(packageRoot(), 'harness/cli/main.ts'), 'utf8');
    const pkg = JSON.parse(await readFile(join(packageRoot(), 'package.json'), 'utf8')) as { files: string[] };
    const runs = Object.values(workflow.jobs).flatMap((job) => job.steps.map((s) => s.run).filter((r): r is string => r !== undefined));
    expect(runs.length).toBeGreaterThan(3);
    for (const run of runs) {
      const words = run.replace(/\s*\|\|\s*true$/, '').split(/\s+/);
      if (words[0] === 'npm') expect(words[1]).toBe('ci');
      else if (words[0] === 'npx') {
        expect(words[1]).toBe('concord');
        const command = words[2]!;
        // Every command the workflow calls is one the CLI registers.
        expect(main, `concord ${command}`).toMatch(new RegExp(`register${command[0]!.toUpperCase()}${command.slice(1)}\\b`));
        if (command === 'gate') expect(run).toContain(`--shard \${{ matrix.shard }}/${shards}`);
      } else {
        expect(words.slice(0, 2)).toEqual(['sudo', 'node']);
        const script = words[2]!.replace('node_modules/concord/', '');
        expect(existsSync(join(packageRoot(), script)), script).toBe(true);
        expect(pkg.files).toContain(script);
      }
    }
  });
});
