import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderSdk } from '../../codemode/run-code/sdk-section.js';
import { InterpreterInventory } from '../interpreters/inventory.js';
import { findInterpreters, LocalInterpreter } from '../interpreters/local.js';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import type { PythonRenderer } from './probe.js';
import { bareNamesAt, floorInterpreterOf, measureSkew } from './probe.js';
import { formatSkew } from './format.js';

/** The real renderer used the wrong way: it ignores the floor it is given and writes with Node's tables. */
const unpinned: PythonRenderer = (tools) => renderSdk('python', tools, { pythonFloor: '3.15' });

describe('whether the renderer is pinned', () => {
  it('finds no bare window name at the floor with the real renderer', () => {
    expect(bareNamesAt('3.9')).toEqual([]);
  });

  it('names every window that a renderer ignoring the floor writes bare', () => {
    expect(bareNamesAt('3.9', unpinned)).toHaveLength(5);
    expect(bareNamesAt('3.13', unpinned)).toHaveLength(2);
  });
});

describe('the floor interpreter', () => {
  it('is the nearest Pyodide when nothing else exists, and says it only approximates the floor', async () => {
    const inventory = await InterpreterInventory.discover({ containers: false, local: false });
    const chosen = floorInterpreterOf(inventory, '3.9');
    expect(chosen).toMatchObject({ exact: false });
    expect(chosen!.interpreter.label).toBe('pyodide 3.11');
    expect(chosen!.why).toContain('only approximates');
    expect(floorInterpreterOf(inventory, '3.13')).toMatchObject({ exact: true, why: 'the floor itself, in Pyodide' });
    expect(floorInterpreterOf(new InterpreterInventory([]), '3.9')).toBeUndefined();
  });
});

const python39 = findInterpreters().find((i) => i.version === '3.9' && i.unicode === '13.0.0');

describe.skipIf(python39 === undefined)('measuring the skew against a local CPython 3.9', () => {
  const inventory = new InterpreterInventory([new LocalInterpreter(python39!)]);

  it('reports a pinned renderer whose SDK the floor compiles, and the contrast it rejects', async () => {
    const report = await measureSkew('3.9', inventory);
    expect(report.pinned).toBe(true);
    expect(report.floorInterpreter).toMatchObject({ label: 'local 3.9', exact: true, unicode: '13.0.0', pinned: 'ok' });
    expect(report.floorInterpreter!.unpinned).toMatch(/^SyntaxError at line \d+, column \d+: /);
    expect(report.bareUnpinned).toEqual(report.tools);
    const text = formatSkew(report);
    expect(text).toContain('renderer: pinned to the floor 3.9');
    expect(text).toMatch(/14\.0\.0 +3\.11 +\d+ +\d+ +\S+_unicode_14_0/);
  });

  it('fails a renderer that ignores the floor, with the floor interpreter rejection', async () => {
    const report = await measureSkew('3.9', inventory, unpinned);
    expect(report.pinned).toBe(false);
    expect(report.bareAtFloor).toHaveLength(5);
    expect(report.floorInterpreter!.pinned).toMatch(/^SyntaxError at line \d+, column \d+: /);
    expect(formatSkew(report)).toMatch(/renderer: NOT pinned to the floor 3\.9 — fixture names written as bare methods.*; local 3\.9 rejects the SDK rendered at the floor/);
  });
});

describe('concord skew', () => {
  const run = promisify(execFile);
  const cli = [`${packageRoot()}/bin/concord.mjs`, 'skew'];

  it('refuses an unsupported floor with exit code 2', async () => {
    const failed = await run(process.execPath, [...cli, '--floor', '2.7']).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('--floor: expected one of 3.8, 3.9') });
  });

  it('prints JSON with Node and interpreter Unicode versions and exits 0 when pinned', async () => {
    const { stdout } = await run(process.execPath, [...cli, '--floor', '3.13', '--json']);
    const report = JSON.parse(stdout) as { nodeUnicode: string; pinned: boolean; windows: unknown[]; interpreters: Array<{ unicode: string }> };
    expect(report.nodeUnicode).toBe(process.versions.unicode);
    expect(report.pinned).toBe(true);
    expect(report.windows).toHaveLength(2);
    expect(report.interpreters.length).toBeGreaterThanOrEqual(4);
  });
});
