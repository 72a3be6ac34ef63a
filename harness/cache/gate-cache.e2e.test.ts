import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { type GateOptions, runGate } from '../gate/gate.js';
import { findInterpreters } from '../interpreters/local.js';
import { projectAt } from '../project/root.js';
import { writeStockProject } from '../project/stock-project.js';

// A project of its own with one scenario on Python and TypeScript: the first gate of its Python pair fills
// .concord/cache, the second reuses all of it. A gate without the cache runs the TypeScript pair: what it must
// not print is the same whatever the pair, and the Python pair's interpreters would all be started cold again.
let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-gate-cache-'));
  // About the cache, not plugin loading: the plugin is JavaScript, so no gate here loads tsx.
  await writeStockProject(root, 'stock', { javascript: true, runtimes: '[typescript, python]' });
});
afterAll(() => rm(root, { recursive: true, force: true }));

const gate = (lines: string[], overrides: Partial<GateOptions> = {}) =>
  runGate({
    project: projectAt(root),
    selection: { runtimes: ['python'] },
    update: 'all',
    ci: false,
    cache: true,
    // About the cache, not stability (unstable.test.ts is): the written pair runs once.
    stabilityRerun: false,
    color: false,
    out: (line) => lines.push(line),
    ...overrides,
  });
const cacheLines = (lines: string[]) => lines.filter((l) => l.startsWith('verdict cache:'));

describe.skipIf(findInterpreters().length === 0)('the gate with its verdict cache', () => {
  it('stores verdicts on the first run and reuses every one on the second; without the cache it says nothing', {
    timeout: 300_000,
  }, async () => {
    const first: string[] = [];
    expect((await gate(first)).ok).toBe(true);
    expect(cacheLines(first)).toEqual([
      expect.stringMatching(/^verdict cache: 0 reused, [1-9]\d* computed \(\.concord\/cache\)$/),
    ]);
    // The stub matrix's Pyodide booted too, and left the memory snapshot the next boot starts from; the local
    // interpreters' probes are kept beside the verdicts.
    expect((await readdir(join(root, '.concord', 'cache'))).sort()).toEqual([
      'compile',
      'import',
      'interpreter',
      'pyodide-snapshot',
      'pyright',
      'tokens',
    ]);

    const second: string[] = [];
    expect((await gate(second)).ok).toBe(true);
    // Every stub compile and import of the stubs, the probe and the renderer floor comes from disk now.
    expect(cacheLines(second)).toEqual([
      expect.stringMatching(/^verdict cache: [1-9]\d* reused, 0 computed \(\.concord\/cache\)$/),
    ]);

    const off: string[] = [];
    expect((await gate(off, { cache: false, selection: { runtimes: ['typescript'] } })).ok).toBe(true);
    expect(cacheLines(off)).toEqual([]);
  });
});

describe('a gate of a TypeScript pair an earlier gate judged', () => {
  it('never loads the TypeScript compiler: its program, SDK names and type checks all come from the cache', {
    timeout: 300_000,
  }, async () => {
    // Each gate process notes at exit whether the compiler is among the modules it loaded; the processes and
    // worker threads it starts inherit the hook and say nothing.
    const hook = join(root, 'typescript-loaded.cjs');
    const log = join(root, 'typescript-loaded.log');
    await writeFile(
      hook,
      `if (process.argv[2] === 'gate' && require('node:worker_threads').isMainThread) process.on('exit', () => require('node:fs').appendFileSync(process.env.TYPESCRIPT_LOADED_LOG, (Object.keys(require.cache).some((file) => /[\\\\/]typescript[\\\\/]lib[\\\\/]typescript\\.js$/.test(file)) ? 'loaded' : 'not loaded') + '\\n'));\n`,
    );
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_OPTIONS: `--require ${hook}`,
      TYPESCRIPT_LOADED_LOG: log,
      NO_COLOR: '1',
    };
    delete env.CI;
    const gate = (...args: string[]) =>
      spawnSync(
        process.execPath,
        [join(packageRoot(), 'bin', 'concord.mjs'), 'gate', '--root', root, '--runtime', 'typescript', ...args],
        { env, encoding: 'utf8', timeout: 240_000 },
      );
    // The first records the pair: the compiler erases the program's types, reads the SDK's names and type-checks.
    const first = gate('--update=all');
    expect(first.status, first.stdout + first.stderr).toBe(0);
    const second = gate();
    expect(second.status, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toMatch(/^verdict cache: [1-9]\d* reused, 0 computed/m);
    expect((await readFile(log, 'utf8')).trimEnd().split('\n')).toEqual(['loaded', 'not loaded']);
  });
});
