import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PYODIDE_VERSION, PYODIDE_RELEASES } from '../../runtimes/pyodide/versions.js';
import { installedWithout } from '../../test/packed.js';
import { stockScenario, writeStockProject } from '../project/stock-project.js';
import { concordIn } from '../test/concord-cli.js';
import { keepCache, seedCache } from '../test/warm-cache.js';

// A project with concord as a default install has one Pyodide, the runtime's default; the others are opt-in.

const OTHERS = (Object.keys(PYODIDE_RELEASES) as Array<keyof typeof PYODIDE_RELEASES>).filter(
  (v) => v !== DEFAULT_PYODIDE_VERSION,
);

let dir = '';
let bin = '';
const concordCli = concordIn(
  () => dir,
  300_000,
  () => bin,
);
const concord = (...args: string[]) => {
  const { status, stdout, stderr } = concordCli({ GITHUB_STEP_SUMMARY: '' }, ...args);
  return { status, stdout, stderr, out: stdout + stderr };
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-one-pyodide-'));
  await writeStockProject(dir, 'stock', { javascript: true });
  await writeFile(join(dir, 'scenarios', 'stock.yml'), stockScenario('stock', '[pyodide]', './plugins/stock.mjs'));
  // The gates start from the run's warm verdict cache (this is about which releases are installed, not about a
  // cold start): the default Pyodide's verdicts and memory snapshot from earlier gates.
  await seedCache(dir);
  bin = await installedWithout(
    dir,
    OTHERS.map((v) => PYODIDE_RELEASES[v].packageName),
  );
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a project with only the default Pyodide installed', () => {
  it('gates on it, and the stub matrix compiles on that one Pyodide', { timeout: 300_000 }, async () => {
    const run = concord('gate', '--update=new', '--jobs', '1');
    expect(run.status, run.out).toBe(0);
    await keepCache(dir);
    const report = await readFile(join(dir, '.concord', 'report.md'), 'utf8');
    expect(report).toContain(`| pyodide ${DEFAULT_PYODIDE_VERSION} |`);
    for (const version of OTHERS) expect(report).not.toContain(`pyodide ${version}`);
  });

  it('refuses a concord.config.yml that opts in a Pyodide not installed, at its line, naming the install command', {
    timeout: 120_000,
  }, async () => {
    const missing = OTHERS[0]!;
    const release = PYODIDE_RELEASES[missing];
    await writeFile(
      join(dir, 'concord.config.yml'),
      `pyodide:\n  versions: ['${DEFAULT_PYODIDE_VERSION}', '${missing}']\n`,
    );
    try {
      const run = concord('gate', '--jobs', '1');
      expect(run.status, run.out).toBe(2);
      expect(run.stderr).toContain(`concord.config.yml:2:`);
      expect(run.stderr).toContain(
        `pyodide.versions[1]: Pyodide ${release.pyodide} (Python ${missing}) is not installed`,
      );
      expect(run.stderr).toContain(
        `run \`npm install --save-dev ${release.packageName}@npm:pyodide@${release.pyodide}\`, or leave ${missing} out`,
      );
    } finally {
      await rm(join(dir, 'concord.config.yml'));
    }
  });

  it('names the install command when a run asks for a Pyodide not installed', { timeout: 120_000 }, async () => {
    const missing = OTHERS.at(-1)!;
    const release = PYODIDE_RELEASES[missing];
    await writeFile(join(dir, 'program.py'), 'return 1\n');
    const run = concord('run', '--runtime', `pyodide:${missing}`, 'program.py');
    expect(run.status, run.out).not.toBe(0);
    expect(run.stderr).toContain(
      `Pyodide ${release.pyodide} (Python ${missing}) needs ${release.packageName}, which is not installed: run \`npm install --save-dev ${release.packageName}@npm:pyodide@${release.pyodide}\``,
    );
  });
});
