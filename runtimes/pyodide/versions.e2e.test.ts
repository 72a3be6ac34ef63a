import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Loader from '@cordisjs/loader';
import { Context } from 'cordis';
import { afterAll, describe, expect, it } from 'vitest';
import { builtModule } from '../seam/package-root.js';
import { disposeSharedRuntimes } from '../seam/pool.js';
import type { CodeRuntime } from '../seam/types.js';
import { fixtureTools } from '../test/fixture-tools.js';
import { runSnapshots } from '../test/pyodide-snapshots.js';
import { compileWithPyodide } from './compile.js';
import { parsePyodideConfig } from './config.js';
import { createPyodideRuntime } from './runtime.js';
import {
  DEFAULT_PYODIDE_VERSION,
  PYODIDE_PYTHON_VERSIONS,
  PYODIDE_RELEASES,
  type PyodidePythonVersion,
} from './versions.js';

// Every installed Pyodide release boots offline, reports the CPython and Unicode versions it embeds, compiles
// with its own tables, and runs programs. The full conformance suite runs on the default release only
// (conformance.test.ts): its timeouts replace the worker several times, and each boot costs seconds. The
// compiling workers and the factory's boot from the run's memory snapshots (snapshot.test.ts is about how a
// worker boots, and boots one afresh). The plugin runs 3.11, whose release keeps no snapshots: its worker
// boots afresh as it would through the factory (a fresh boot costs about 3 CPU-s, one from a snapshot 1.7).
const snapshots = runSnapshots();

/** Identifiers from successive Unicode versions (14.0, 15.0, 15.1, 16.0): each release accepts a prefix. */
const IDENTIFIER_CODE_POINTS = [0x10570, 0x1e4d0, 0x2ebf0, 0x1c89];

/**
 * Whether each code point is XID_Start in Unicode `unicode`, from its ranges: the package's code-points
 * list spells out all 140,000 of them, and building a set of those cost 0.1 CPU-s per version.
 */
async function xidStart(unicode: string, codePoints: readonly number[]): Promise<boolean[]> {
  const module = (await import(`@unicode/unicode-${unicode}/Binary_Property/XID_Start/ranges.mjs`)) as {
    default: Array<{ begin: number; end: number }>;
  };
  return codePoints.map((codePoint) =>
    module.default.some((range) => range.begin <= codePoint && codePoint < range.end),
  );
}

const SMOKE_PROGRAM = [
  'import sys',
  'try:',
  '    await tools.fail({})',
  'except ToolCallError as error:',
  '    failed = error.toolName',
  'print("hello")',
  'return [list(sys.version_info[:2]), await tools.echo({"k": [1]}), failed, sorted(globals())]',
].join('\n');

async function expectSmoke(runtime: CodeRuntime, version: PyodidePythonVersion): Promise<void> {
  expect(runtime.language).toBe('python');
  expect(runtime.isolation).toBe('wasm');
  const result = await runtime.run({ program: SMOKE_PROGRAM, bindings: fixtureTools() });
  const [major, minor] = version.split('.').map(Number);
  expect(result).toEqual({
    logs: ['hello'],
    // `failed` is a local of the program's function: the globals stay exactly the bindings.
    value: [[major, minor], { k: [1] }, 'fail', ['ToolCallError', '__builtins__', 'tools']],
  });
}

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Boots the plugin through the real @cordisjs/loader and returns ctx.codeRuntime. */
async function bootPlugin(version: PyodidePythonVersion): Promise<{ runtime: CodeRuntime; stop: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'concord-pyodide-plugin-'));
  dirs.push(dir);
  const plugin = builtModule('runtimes/pyodide/plugin.ts');
  await writeFile(
    join(dir, 'cordis.yml'),
    `- id: runtime\n  name: ${plugin}\n  config:\n    version: '${version}'\n    timeoutMs: 20000\n`,
  );
  const ctx = new Context();
  ctx.plugin(Loader, { name: 'cordis', filename: join(dir, 'cordis.yml') });
  await ctx.start();
  const runtime = await new Promise<CodeRuntime>((resolve) =>
    ctx.inject(['codeRuntime'], (child) => resolve(child.get('codeRuntime') as CodeRuntime)),
  );
  // Unloading the entries disposes the plugin-owned runtime.
  return {
    runtime,
    stop: async () => {
      await ctx.get('loader')!.root.stop();
      // cordis disposes synchronously; this waits for the worker to be gone.
      await disposeSharedRuntimes();
    },
  };
}

describe('pyodide releases', () => {
  it('has 3.13 as its default', () => {
    expect(DEFAULT_PYODIDE_VERSION).toBe('3.13');
    expect(PYODIDE_PYTHON_VERSIONS).toEqual(['3.11', '3.12', '3.13', '3.14']);
  });

  it('refuses a config with an unknown version, naming the field and the choices', () => {
    expect(() => parsePyodideConfig({ version: '3.9' })).toThrow(
      /version must be one of "3\.11", "3\.12", "3\.13", "3\.14".*"3\.9"/,
    );
    expect(() => parsePyodideConfig({ version: 3.12 })).toThrow(/version must be one of/);
    expect(() => parsePyodideConfig({ timeout: 5 })).toThrow(/unknown field "timeout"/);
    expect(() => parsePyodideConfig({ memoryLimitBytes: 1024 })).toThrow(/memoryLimitBytes must be an integer from/);
  });

  for (const version of PYODIDE_PYTHON_VERSIONS) {
    it(`${version}: compiles with its own interpreter and Unicode tables${version === DEFAULT_PYODIDE_VERSION ? '' : ', and runs programs'}`, async () => {
      const release = PYODIDE_RELEASES[version];
      const identifiers = IDENTIFIER_CODE_POINTS.map((codePoint) => `${String.fromCodePoint(codePoint)} = 1\n`);
      const sources = ['x: int = 1\n', 'def f(:\n    pass\n', 'a = 1\nb = (1 +\n', ...identifiers];
      const smoke = async (): Promise<void> => {
        if (version === DEFAULT_PYODIDE_VERSION) return;
        // One release goes through the cordis plugin, the others through the factory.
        if (version === '3.11') {
          const { runtime, stop } = await bootPlugin(version);
          try {
            await expectSmoke(runtime, version);
          } finally {
            await stop();
          }
          return;
        }
        const runtime = createPyodideRuntime({ version, timeoutMs: 20_000 }, { snapshots });
        try {
          await expectSmoke(runtime, version);
        } finally {
          await runtime.dispose();
        }
      };
      // One after the other: the compiling worker leaves the snapshot that the factory's then boots from.
      const report = await compileWithPyodide(version, sources, { snapshots });
      await smoke();

      expect(report.version).toBe(version);
      expect(report.pyodide).toBe(release.pyodide);
      expect(report.python.startsWith(`${version}.`)).toBe(true);
      expect(report.unicode).toBe(release.unicode);
      expect(report.results[0]).toEqual({ ok: true });
      expect(report.results[1]).toMatchObject({ ok: false, name: 'SyntaxError', line: 1 });
      expect(report.results[2]).toMatchObject({ ok: false, name: 'SyntaxError', line: 2 });
      const column = (report.results[1] as { column: number | null }).column;
      expect(column).toBeGreaterThan(0);

      const accepted = report.results.slice(3).map((outcome) => outcome.ok);
      expect(accepted).toEqual(await xidStart(report.unicode, IDENTIFIER_CODE_POINTS));
    });
  }
});
