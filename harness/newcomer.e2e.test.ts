import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { copyFile, cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../runtimes/seam/package-root.js';
import { Host } from '../test/host-requirements.js';
import { packed } from '../test/packed.js';
import { SCENARIO_SCHEMA_REFERENCE } from './init/scaffold.js';
import { findInterpreters } from './interpreters/local.js';
import { keepCache, seedCache } from './test/warm-cache.js';

// A team's first day with concord, from the packed tarball in a folder far from this repository: install,
// record snapshots, gate in CI, change a tool, see the gate fail with the word, accept, pass again.

let work = '';
let tarball = '';
let packedFiles: string[] = [];
const timings: Array<[string, number]> = [];

/** The environment of a shell in a fresh folder: nothing of the npm script that runs these tests. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_|^CI$|^INIT_CWD$/i.test(key)) env[key] = value;
  return { ...env, NO_COLOR: '1', ...extra };
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  out: string;
}

/** Runs a command to its end without blocking the test: a type check runs beside a gate. */
function sh(
  label: string,
  cwd: string,
  command: string,
  args: string[],
  extra: Record<string, string> = {},
): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 600_000,
      env: cleanEnv(extra),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => {
      timings.push([label, performance.now() - started]);
      resolve({ status, stdout, stderr, out: stdout + stderr });
    });
  });
}

/**
 * A command the project's install put in node_modules/.bin, as `npx` and npm scripts run it (npx's own start left out).
 */
const bin = (label: string, cwd: string, name: string, args: string[], extra: Record<string, string> = {}) =>
  sh(label, cwd, join(cwd, 'node_modules', '.bin', name), args, extra);
const concord = (label: string, cwd: string, args: string[], extra: Record<string, string> = {}) =>
  bin(label, cwd, 'concord', args, extra);
const tsc = (label: string, cwd: string) => bin(label, cwd, 'tsc', ['-p', '.']);

/**
 * The examples' package.json files ask for the same packages (concord and its optional peers, asserted
 * below), so concord is installed from the tarball once, by `npm install` in a folder of its own with the
 * inventory example's package.json, and each project gets a copy of that install (never the folder itself),
 * its files hard links to the install's: folders of its own at no cost of copying the bytes (nothing writes into
 * node_modules, and the test checks concord's files byte for byte).
 */
let install: Promise<Ran> | undefined;
async function npmInstall(dir: string): Promise<Ran> {
  install ??= (async () => {
    const folder = join(work, 'installed');
    await cp(join(packageRoot(), 'examples', 'inventory', 'package.json'), join(folder, 'package.json'));
    return sh('npm install (once, copied to each project)', folder, 'npm', [
      'install',
      tarball,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
    ]);
  })();
  const done = await install;
  if (done.status === 0) {
    const copy = spawnSync('cp', ['-al', join(work, 'installed', 'node_modules'), join(dir, 'node_modules')], {
      encoding: 'utf8',
    });
    if (copy.status !== 0) throw new Error(`could not copy the install into ${dir}: ${copy.stderr}`);
  }
  return done;
}

/** Every file below `dir` with the hash of its bytes. */
async function fingerprint(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out[relative(dir, path)] = createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
  }
  return out;
}

/** An example backend copied into its own folder, first only its package.json (the rest comes later). */
async function newProject(example: string): Promise<{ dir: string; source: string }> {
  const source = join(packageRoot(), 'examples', example);
  const dir = join(work, example);
  await cp(join(source, 'package.json'), join(dir, 'package.json'));
  return { dir, source };
}

const copyRest = (source: string, dir: string, keepSnapshots: boolean) =>
  cp(source, dir, {
    recursive: true,
    filter: (path) => {
      const rel = relative(source, path).split('/')[0];
      return (
        rel !== 'node_modules' && rel !== '.concord' && rel !== 'package.json' && (keepSnapshots || rel !== 'snapshots')
      );
    },
  });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'concord-newcomer-'));
  // The tarball the test setup packed from this run's build.
  ({ tarball, files: packedFiles } = packed());
});

afterAll(async () => {
  if (timings.length > 0)
    console.log(
      `newcomer loop timings:\n${timings.map(([label, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${label}`).join('\n')}`,
    );
  await rm(work, { recursive: true, force: true });
});

describe('the examples', () => {
  it('ask for the same packages, so one install serves them all', async () => {
    const wanted = async (example: string) =>
      (
        JSON.parse(await readFile(join(packageRoot(), 'examples', example, 'package.json'), 'utf8')) as {
          devDependencies: unknown;
        }
      ).devDependencies;
    for (const example of ['naive-python', 'prose-sections'])
      expect(await wanted(example), example).toEqual(await wanted('inventory'));
  });
});

describe('the packed tarball', () => {
  it('holds the built code, its type declarations and the CLI, and no tests', () => {
    for (const file of [
      'bin/concord.mjs',
      'scenario.schema.json',
      'docs/scenarios.md',
      'dist/harness/cli/main.js',
      'dist/harness/api.d.ts',
      'dist/contract/index.d.ts',
      'dist/codemode/tools/plugin.js',
      'dist/codemode/agent/plugin.js',
      'package.json',
    ]) {
      expect(packedFiles).toContain(file);
    }
    expect(
      packedFiles.filter(
        (file) => /\.test\.|(^|\/)(scenarios|snapshots|examples)\//.test(file) && !file.startsWith('dist/scenarios/'),
      ),
    ).toEqual([]);
  });

  it('runs no script of its own when installed: npm has nothing to build or warn about', () => {
    const listing = spawnSync('tar', ['-xzOf', packed().tarball, 'package/package.json'], { encoding: 'utf8' });
    const scripts = Object.keys((JSON.parse(listing.stdout) as { scripts?: Record<string, string> }).scripts ?? {});
    const install = ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish'];
    expect(scripts.filter((name) => install.includes(name))).toEqual([]);
  });
});

describe('a newcomer gates the inventory backend from the tarball', () => {
  it('install → no scenarios exits 2 → init → --update=new → CI gate passes → one word changes → CI gate fails with the word → review → passes', {
    timeout: 900_000,
  }, async () => {
    const { dir, source } = await newProject('inventory');
    const install = await npmInstall(dir);
    expect(install.status, install.out).toBe(0);
    const installed = join(dir, 'node_modules', 'concord');
    const installedBefore = await fingerprint(installed);

    // Nothing to gate yet: the gate names this folder, never concord's own scenarios.
    const empty = await concord('gate, no scenarios', dir, ['gate']);
    expect(empty.status, empty.out).toBe(2);
    expect(empty.stderr).toContain(`no scenarios in ${join(dir, 'scenarios')}`);
    expect(empty.stderr).toContain('concord init');

    // init from the tarball: its scenario, wired to the example's plugin, runs beside the example's own.
    const init = await concord('init', dir, ['init', '--plugin', './src/plugins/inventory.ts']);
    expect(init.status, init.out).toBe(0);
    expect(init.stdout).toContain('wrote    scenarios/inventory.yml');
    // The schema line init writes points at the schema the package exports.
    const schema = createRequire(join(dir, 'package.json')).resolve('concord/scenario.schema.json');
    expect(realpathSync(join(dir, 'scenarios', SCENARIO_SCHEMA_REFERENCE))).toBe(realpathSync(schema));
    await copyRest(source, dir, false);
    // Not about a cold start: the gates start from the verdicts earlier gates of the run computed, and leave theirs.
    await seedCache(dir);
    // The plugin type-checks against the declarations the tarball ships (beside the first gate: neither writes what the
    // other reads).
    const [types, first] = await Promise.all([
      tsc('tsc --noEmit', dir),
      concord('gate --update=new', dir, ['gate', '--update=new']),
    ]);
    expect(types.status, types.out).toBe(0);
    expect(first.status, first.out).toBe(0);
    expect(first.stdout).toContain('gate: everything agrees');
    // Recorded far from this repository, the snapshots are byte for byte the committed ones: they are portable.
    expect(await fingerprint(join(dir, 'snapshots', 'restock'))).toEqual(
      await fingerprint(join(source, 'snapshots', 'restock')),
    );
    expect(first.stdout).toMatch(/updated +inventory × python/);

    const ci = await concord('CI=true gate (pass)', dir, ['gate'], { CI: 'true' });
    expect(ci.status, ci.out).toBe(0);
    expect(ci.stdout).toMatch(/4 run\(s\): 4 pass/);

    const plugin = join(dir, 'src', 'plugins', 'inventory.ts');
    const text = await readFile(plugin, 'utf8');
    expect(text).toContain("description: 'Orders more units");
    await writeFile(plugin, text.replace("description: 'Orders more units", "description: 'Requests more units"));
    const snapshotsBefore = await fingerprint(join(dir, 'snapshots'));

    const failing = await concord('CI=true gate (one word changed)', dir, ['gate'], { CI: 'true' });
    expect(failing.status, failing.out).toBe(1);
    expect(failing.stdout).toContain('[-Orders-]{+Requests+}');
    expect(failing.stdout).toContain('gate: FAILED');
    expect(await fingerprint(join(dir, 'snapshots'))).toEqual(snapshotsBefore);

    const review = await concord('review --accept-all', dir, ['review', '--accept-all']);
    expect(review.status, review.out).toBe(0);
    expect(review.stdout).toContain('accepted: snapshots/restock/typescript/tools-sdk.ts');
    expect(review.stdout).toContain('accepted: snapshots/restock/python/tools-sdk.py');
    expect(await readFile(join(dir, 'snapshots', 'restock', 'python', 'tools-sdk.py'), 'utf8')).toContain(
      '"""Requests more units',
    );

    const again = await concord('CI=true gate (after review)', dir, ['gate'], { CI: 'true' });
    expect(again.status, again.out).toBe(0);
    expect(again.stdout).toContain('report: .concord/report.md (');

    await keepCache(dir);
    // concord's install folder was never taken for the project: not one file in it changed or appeared.
    expect(await fingerprint(installed)).toEqual(installedBefore);
    for (const folder of ['scenarios', 'snapshots', '.concord'])
      expect(existsSync(join(installed, folder))).toBe(false);
  });
});

// The naive renderer's failure shows on an interpreter whose Unicode is 13.0: the floor, CPython 3.9.
(await Host.with('python3.9')).describe('a backend with its own registry, agent and naive Python renderer', () => {
  it('passes its committed snapshots, and fails on floor 3.9 for a tool named past Unicode 13.0, naming the interpreter, line and column', {
    timeout: 900_000,
  }, async () => {
    const { dir, source } = await newProject('naive-python');
    const install = await npmInstall(dir);
    expect(install.status, install.out).toBe(0);
    await copyRest(source, dir, true);
    await copyFile(join(dir, 'past-floor', 'unicode-past-floor.yml'), join(dir, 'scenarios', 'unicode-past-floor.yml'));
    await seedCache(dir);

    const [types, gate] = await Promise.all([
      tsc('tsc --noEmit (naive)', dir),
      concord('CI=true gate --floor 3.9 (naive renderer)', dir, ['gate', '--floor', '3.9'], { CI: 'true' }),
    ]);
    await keepCache(dir);
    expect(types.status, types.out).toBe(0);
    expect(gate.stdout).toMatch(/✓ pass +lookup × python/);
    expect(gate.stdout).toMatch(/✗ failed +unicode-past-floor × python/);
    expect(gate.status, gate.out).toBe(1);
    // Failed as a gate fails, with its verdict, not by stopping on an error (also exit 1, said on stderr).
    expect(gate.stdout, gate.out).toMatch(/^gate: FAILED$/m);
    expect(gate.stdout).toMatch(
      /stub-validity: tools-sdk\.py does not compile on (local|container) 3\.(9|10) \(CPython 3\.\d+\.\d+, Unicode 13\.0\.0, [^)]+\)(?: and \d+ more \([^)]+\))?: SyntaxError at line 11, column 15: [^\n]*U\+A7D1\n +11 \| +async def \u{A7D1}lossary_lookup\(/u,
    );
  });
});

describe('a backend whose sections are a prose guide and one fenced block per language', () => {
  it('passes its plain pairs; an upstream-style Python renderer fails on floor 3.9 with each problem named; prose in the other language is a finding', {
    timeout: 900_000,
  }, async () => {
    const { dir, source } = await newProject('prose-sections');
    const install = await npmInstall(dir);
    expect(install.status, install.out).toBe(0);
    await copyRest(source, dir, false);
    await seedCache(dir);
    const [types, plain] = await Promise.all([
      tsc('tsc --noEmit (prose)', dir),
      concord('gate --update=new (prose sections)', dir, ['gate', '--update=new']),
    ]);
    expect(types.status, types.out).toBe(0);
    expect(plain.stdout).toMatch(/updated +lookup × typescript/);
    expect(plain.stdout).toMatch(/updated +lookup × python/);
    expect(plain.status, plain.out).toBe(0);
    expect(plain.stdout).toContain('gate: everything agrees');
    // The snapshot keeps the prose beside the block's file; the file holds the block alone.
    const transcript = await readFile(join(dir, 'snapshots', 'lookup', 'python', 'transcript.yaml'), 'utf8');
    expect(transcript).toContain('Writing code for run_code');
    expect(transcript).toContain('file: tools-sdk.py');
    expect(await readFile(join(dir, 'snapshots', 'lookup', 'python', 'tools-sdk.py'), 'utf8')).toMatch(
      /^from typing import Any, Dict\n/,
    );

    for (const variant of ['upstream-past-floor', 'upstream-zwnj', 'upstream-not-required', 'crossed-prose']) {
      await copyFile(join(dir, 'variants', `${variant}.yml`), join(dir, 'scenarios', `${variant}.yml`));
    }
    const gate = await concord('gate --floor 3.9 --update=new (upstream renderer)', dir, [
      'gate',
      '--floor',
      '3.9',
      '--update=new',
    ]);
    await keepCache(dir);
    expect(gate.status, gate.out).toBe(1);
    // Failed as a gate fails, with its verdict, not by stopping on an error (also exit 1, said on stderr).
    expect(gate.stdout, gate.out).toMatch(/^gate: FAILED$/m);
    expect(gate.stdout).toMatch(/✓ pass +lookup × python/);
    expect(gate.stdout).toMatch(/✓ pass +lookup × typescript/);
    for (const variant of ['upstream-past-floor', 'upstream-zwnj', 'upstream-not-required', 'crossed-prose'])
      expect(gate.stdout).toMatch(new RegExp(`✗ failed +${variant} × python`));
    const local39 = findInterpreters().some((i) => i.version === '3.9');
    if (local39) {
      // Line 17 is the method of the one tool (after the TypedDict, ToolCallError and Tools lines).
      expect(gate.stdout).toMatch(
        /stub-validity: tools-sdk\.py does not compile on [^\n]*local 3\.9[^\n]*: SyntaxError at line \d+, column 15: [^\n]*U\+A7D1/u,
      );
      expect(gate.stdout).toMatch(
        /stub-validity: tools-sdk\.py does not compile on [^\n]*local 3\.9[^\n]*: SyntaxError at line \d+, column \d+: [^\n]*U\+200C/u,
      );
      expect(gate.stdout).toMatch(
        /stub-import: tools-sdk\.py compiles but fails when executed as a module on [^\n]*local 3\.9[^\n]*: ImportError at line 1, column 31: cannot import name 'NotRequired' from 'typing'/,
      );
    }
    expect(gate.stdout).toMatch(
      /language-agreement: the tools:sdk prose around the block on the python runtime \(Python\) speaks TypeScript: the name TypeScript/,
    );
    // The run-level renderer-floor step reads the block out of the same prose sections.
    expect(gate.stdout).toMatch(
      /renderer-floor: upstream-[a-z-]+ \([^)]*\): the Python renderer is not pinned to the floor 3\.9/,
    );
  });
});
