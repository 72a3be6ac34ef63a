import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCommand } from '../runtimes/seam/optional-package.js';
import { installedWithout } from '../test/packed.js';
import { writeStockProject } from './project/stock-project.js';
import { concordIn } from './test/concord-cli.js';
import { keepCache, seedCache } from './test/warm-cache.js';

// A project whose install left out tsx, pyright and js-tiktoken (optional peers): each feature that needs
// one says so in one line with the command that adds it, and nothing else breaks.

let dir = '';
let bin = '';
const concordCli = concordIn(
  () => dir,
  300_000,
  () => bin,
);
const gate = (...args: string[]) => {
  const { status, stdout, stderr } = concordCli({ GITHUB_STEP_SUMMARY: '' }, 'gate', '--jobs', '1', ...args);
  return { status, stdout, stderr, out: stdout + stderr };
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-optional-peers-'));
  await writeStockProject(dir);
  bin = await installedWithout(dir, ['tsx', 'pyright', 'js-tiktoken']);
  // Not about a cold start: the gates start from the verdicts (and the Pyodide memory snapshot) earlier gates
  // of the run computed, but for the token counts, which would measure the SDK without the missing tokenizer.
  await seedCache(dir, ['tokens']);
}, 120_000);
afterAll(async () => {
  await keepCache(dir);
  await rm(dir, { recursive: true, force: true });
});

describe('a project without the optional peers', () => {
  it('refuses a .ts plugin at its scenario line, naming the tsx install command', { timeout: 120_000 }, () => {
    const run = gate('--update=new');
    expect(run.status, run.out).toBe(2);
    expect(run.stderr).toMatch(
      /stock\.yml:\d+:\d+: \.\/plugins\/stock\.ts cannot be imported: a TypeScript plugin with no build step needs tsx, which is not installed/,
    );
    expect(run.stderr).toContain(`hint: run \`${installCommand('tsx')}\``);
  });

  it('runs a .js plugin; a Python pair skips its type check naming pyright (not green, also in CI), and the SDK cost says why it is not measured', {
    timeout: 300_000,
  }, async () => {
    // The plain JavaScript plugin, which needs no tsx.
    await writeStockProject(dir, 'stock', { runtimes: '[typescript, pyodide]', javascript: true });
    const run = gate('--update=new');
    expect(run.status, run.out).toBe(0);
    expect(run.stdout).toMatch(/↻ updated +stock × typescript/);
    expect(run.stdout).toMatch(/↻ updated +stock × pyodide/);
    const hint = `type-checking Python programs needs pyright, which is not installed: run \`${installCommand('pyright')}\``;
    expect(run.stdout).toContain(`skipped: the typecheck-programs check on 1 pair(s) — ${hint}`);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      'gate: everything agrees, but not everything ran (skipped: 1 check(s); see the skipped lines above)',
    );
    expect(run.stdout).toContain(
      `SDK cost: not measured: the SDK cost in tokens needs js-tiktoken, which is not installed: run \`${installCommand('js-tiktoken')}\``,
    );
    expect(await readFile(join(dir, 'snapshots', 'stock', 'typescript', 'tools-sdk.ts'), 'utf8')).toContain(
      'count_items',
    );

    // In CI the same skip is a warning too: the step summary says what did not run instead of showing it green.
    const summary = join(dir, 'step-summary.md');
    const ci = concordCli({ CI: 'true', GITHUB_STEP_SUMMARY: summary }, 'gate', '--jobs', '1');
    expect(ci.status, ci.stdout + ci.stderr).toBe(0);
    expect(ci.stdout).toContain(`skipped: the typecheck-programs check on 1 pair(s) — ${hint}`);
    const markdown = await readFile(summary, 'utf8');
    expect(markdown).toContain('## concord gate: ⚠️ everything that ran agrees (skipped: 1 check(s))');
    expect(markdown).not.toContain('✅ everything agrees');
  });

  it('fails an sdkBudget it cannot check, rather than passing it unchecked', { timeout: 300_000 }, async () => {
    await writeFile(join(dir, 'concord.config.yml'), 'sdkBudget:\n  maxTokens: 100000\n');
    const run = gate('--runtime', 'typescript');
    expect(run.status, run.out).toBe(1);
    expect(run.stdout).toContain(
      `sdkBudget in concord.config.yml is not checked: the SDK cost in tokens needs js-tiktoken, which is not installed: run \`${installCommand('js-tiktoken')}\``,
    );
  });

  it('prints with concord sdk --stats the bytes per tool, saying why tokens are not counted', async () => {
    const tools = join(dir, 'tools.json');
    await writeFile(
      tools,
      JSON.stringify([
        { name: 'ping', description: 'Answers.', parameters: { type: 'object' } },
        {
          name: 'echo',
          description: 'Says it back.',
          parameters: { type: 'object', properties: { text: { type: 'string' } } },
        },
      ]),
    );
    const stats = concordCli({}, 'sdk', '--language', 'typescript', '--tools', tools, '--stats');
    expect(stats.status, stats.stderr).toBe(0);
    const lines = stats.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      `typescript SDK of 2 tools: ${lines[0]!.match(/[\d,]+ bytes, [\d,]+ bytes per tool/)![0]} (tokens not counted: the SDK cost in tokens needs js-tiktoken, which is not installed: run \`${installCommand('js-tiktoken')}\`)`,
    );
    // Without tokens, what the descriptions cost is in bytes too.
    expect(lines[1]).toMatch(/^ {2}described \(the tools' own descriptions\): [\d,]+ bytes; /);
    expect(lines.slice(4).map((line) => line.trim().split(/\s+/).at(-1))).toEqual(['echo', 'ping']);
  });
});
