import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { FLOOR_IMAGE } from '../runtimes/cpython/images.js';
import { containerUnavailable } from '../runtimes/seam/docker-engine.js';
import { packageRoot } from '../runtimes/seam/package-root.js';
import { Host } from '../test/host-requirements.js';
import { nodeBinary } from '../test/node-binaries.js';
import { packed } from '../test/packed.js';

/**
 * examples/deepseek-harness: a backend on deepseek-harness's published packages, on the harness's own framework and
 * loader, booted by a host of its own under Node 22 (the harness needs 22.19 or later). Copied outside this
 * repository, its packages and concord's packed tarball installed from the npm registry as its team would, it gates
 * every pair: the harness's own TypeScript worker, and concord's Python runtimes behind the harness's runtime seam,
 * read through the harness's own Python SDK. A change to the harness in node_modules fails the gate naming it.
 */

const host = await Host.with('node 22', 'npm registry');
const dockerMissing = await containerUnavailable(FLOOR_IMAGE);

let root = '';
let bin = '';
beforeAll(async () => {
  if (host.missing !== undefined) return;
  root = await mkdtemp(join(tmpdir(), 'concord-deepseek-harness-'));
  await cp(join(packageRoot(), 'examples', 'deepseek-harness'), root, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|\.concord)$/.test(source),
  });
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  manifest.devDependencies.concord = `file:${packed().tarball}`;
  await writeFile(join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (install.status !== 0) throw new Error(`npm install failed: ${install.stderr}`);
  bin = join(root, 'node_modules', 'concord', 'bin', 'concord.mjs');
}, 660_000);
afterAll(() => rm(root, { recursive: true, force: true }));

/** `concord gate` in CI under Node 22, with the container runtime left out where no Docker engine answers. */
function gate(...args: string[]): { status: number | null; output: string } {
  const skip = dockerMissing === undefined ? [] : ['--skip-runtime', 'python-container'];
  const run = spawnSync(nodeBinary(22), [bin, 'gate', ...skip, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...process.env, CI: 'true', NO_COLOR: '1' },
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

/** Runs `body` with the harness's tool layer in node_modules edited by `edit`, and restores it after. */
async function withHarnessEdited(edit: (source: string) => string, body: () => void): Promise<void> {
  const file = join(root, 'node_modules', '@deepseek-ai', 'dsh-tools', 'lib', 'index.js');
  const original = await readFile(file, 'utf8');
  const edited = edit(original);
  expect(edited).not.toBe(original);
  await writeFile(file, edited);
  try {
    body();
  } finally {
    await writeFile(file, original);
  }
}

host.describe('deepseek-harness as it ships, gated through its own host', () => {
  host.it('passes every pair; the renderer defects it knows of are notes', { timeout: 900_000 }, () => {
    const { status, output } = gate();
    expect(status, output).toBe(0);
    const pairs = dockerMissing === undefined ? 8 : 6;
    expect(output).toContain(`${pairs} run(s): ${pairs} pass`);
    expect(output).toMatch(/^gate: everything agrees/m);
    expect(output).toMatch(/^note probe: python .*\(known: /m);
  });

  host.it(
    "fails when the harness's run_code description speaks Python on the TypeScript lane",
    { timeout: 600_000 },
    () =>
      withHarnessEdited(
        (source) => source.replace('Execute a TypeScript program against', 'Execute a Python program against'),
        () => {
          const { status, output } = gate('--runtime', 'typescript');
          expect(status, output).toBe(1);
          expect(output).toContain(
            'language-agreement: the run_code description on the typescript runtime (TypeScript) speaks Python: the name Python/CPython/Pyodide ("Python"); expected TypeScript only',
          );
        },
      ),
  );

  host.it("fails when the harness's TypeScript renderer drops a tool, naming it", { timeout: 600_000 }, () =>
    withHarnessEdited(
      (source) => source.replace('for (const schema of sorted) {', 'for (const schema of sorted.slice(1)) {'),
      () => {
        const { status, output } = gate('--runtime', 'typescript');
        expect(status, output).toBe(1);
        expect(output).toContain('sdk-names: tools-sdk.ts: tool "add_note" is not reachable from the SDK');
      },
    ),
  );

  host.it(
    'names the true findings of its Python lane at floor 3.9, each with its interpreter, line and column',
    { timeout: 600_000 },
    () => {
      const { status, output } = gate('--runtime', 'python', '--floor', '3.9');
      expect(status, output).toBe(1);
      // Compiles, and fails when executed on 3.9 and 3.10: typing has NotRequired from 3.11.
      expect(output).toMatch(
        /stub-import: tools-sdk\.py compiles but fails when executed as a module on local 3\.10 .*ImportError at line 1, column 20: cannot import name 'NotRequired'/,
      );
      // `X | None` in a TypedDict body needs 3.10.
      expect(output).toMatch(
        /tools-sdk\.py does not type-check \(pyright for Python 3\.9\), line \d+, column \d+: Alternative syntax for unions requires Python 3\.10/,
      );
      // A tool named with a letter Unicode 14 added is written bare, and CPython 3.9 cannot read it.
      expect(output).toMatch(
        /ࡰ_unicode_14_0 \(line \d+, column \d+\).*which CPython 3\.9 \(Unicode 13\.0\.0\) cannot read/,
      );
    },
  );
});
