import { afterAll, describe, expect, it } from 'vitest';
import { disposeSharedRuntimes } from '../../runtimes/seam/pool.js';
import { Host } from '../../test/host-requirements.js';
import { InterpreterInventory } from '../interpreters/inventory.js';
import { findInterpreters, LocalInterpreter } from '../interpreters/local.js';
import { formatSkew } from './format.js';
import { floorInterpreterOf, measureSkew } from './measure-skew.js';
import { appSource, committedScenario, unpinned } from './test/apps.js';

afterAll(() => disposeSharedRuntimes());

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

const python39 = findInterpreters().find((i) => i.version === '3.9');

(await Host.with('python3.9')).describe('measuring the skew of the project app against a local CPython 3.9', () => {
  const inventory = new InterpreterInventory([new LocalInterpreter(python39!)]);
  afterAll(() => inventory.dispose());

  it('reports the reference renderer pinned, the SDK compiling on the floor, and the contrast rejected', {
    timeout: 120_000,
  }, async () => {
    const report = await measureSkew('3.9', inventory, appSource(await committedScenario('mode-both')));
    expect(report.pinned).toBe(true);
    expect(report.bareAtFloor).toEqual([]);
    expect(report.compiled).toMatchObject([{ interpreter: 'local 3.9', unicode: '13.0.0', outcome: 'ok' }]);
    expect(report.floorInterpreter).toMatchObject({ label: 'local 3.9', exact: true, unicode: '13.0.0' });
    expect(report.floorInterpreter!.contrast).toMatch(
      /^SyntaxError at line 1, column 1: invalid (non-printable )?character/,
    );
    const text = formatSkew(report);
    expect(text).toContain('renderer: the app of scenario mode-both on python');
    expect(text).toContain('renderer: pinned to the floor 3.9');
    expect(text).toMatch(/14\.0\.0 +3\.11 +\d+ +\d+ +\S+_unicode_14_0/);
  });

  it('names a renderer that ignores the floor with the interpreter, line and column', {
    timeout: 120_000,
  }, async () => {
    const report = await measureSkew('3.9', inventory, appSource(unpinned(await committedScenario('mode-both'))));
    expect(report.pinned).toBe(false);
    expect(report.bareAtFloor).toHaveLength(5);
    expect(report.compiled[0]).toMatchObject({
      interpreter: 'local 3.9',
      outcome: 'rejected',
      line: expect.any(Number),
      column: expect.any(Number),
    });
    expect(formatSkew(report)).toMatch(
      /renderer: NOT pinned to the floor 3\.9 — fixture names written as bare methods, which CPython 3\.9 cannot read: \S+_unicode_14_0 \(line \d+, column 15\).*; rejected by local 3\.9 at line \d+, column \d+/,
    );
  });
});
