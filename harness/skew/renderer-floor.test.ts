import { afterAll, describe, expect, it } from 'vitest';
import { disposeSharedRuntimes } from '../../runtimes/seam/pool.js';
import { Host } from '../../test/host-requirements.js';
import { InterpreterInventory } from '../interpreters/inventory.js';
import { findInterpreters, LocalInterpreter } from '../interpreters/local.js';
import { rendererFloorFindings } from './renderer-floor.js';
import { committedScenario, onPython, unpinned } from './test/apps.js';

const python39 = await Host.with('python3.9');
const local = findInterpreters().map((i) => new LocalInterpreter(i));
const inventory = new InterpreterInventory(local);

afterAll(async () => {
  await disposeSharedRuntimes();
  await inventory.dispose();
});

describe('the renderer floor, through the project app', () => {
  it('passes the reference renderer, which lists every window name for subscript access', {
    timeout: 120_000,
  }, async () => {
    const result = await rendererFloorFindings(
      [onPython(await committedScenario('mode-both'))],
      '3.9',
      async () => inventory,
    );
    expect(result.findings).toEqual([]);
    expect(result.elapsedMs).toBeGreaterThan(0);
  });

  it('names a renderer not pinned to the floor with the line and column of each bare name', {
    timeout: 120_000,
  }, async () => {
    const scenario = unpinned(await committedScenario('mode-both'));
    const { findings } = await rendererFloorFindings([onPython(scenario)], '3.9', async () => inventory);
    const bare = findings.find((f) => f.message.includes('bare methods'));
    expect(bare).toMatchObject({ check: 'renderer-floor', severity: 'error', scenario: 'mode-both' });
    expect(bare!.message).toMatch(
      /^mode-both \(\S+mode-both\.yml, on python\): the Python renderer is not pinned to the floor 3\.9: it writes (\S+_unicode_\d+_\d+ \(line \d+, column 15\), ){3}\S+_unicode_\d+_\d+ \(line \d+, column 15\) and \S+_unicode_\d+_\d+ \(line \d+, column 15\) of tools-sdk\.py as bare methods, which CPython 3\.9 \(Unicode 13\.0\.0\) cannot read/,
    );
  });

  python39.it(
    'names the floor interpreter that rejects the unpinned SDK, with line and column; interpreters that fail alike are one finding',
    { timeout: 120_000 },
    async () => {
      const scenario = unpinned(await committedScenario('mode-both'));
      const { findings } = await rendererFloorFindings([onPython(scenario)], '3.9', async () => inventory);
      const rejected = findings.filter((f) => f.message.includes('floor fixture'));
      const named = rejected.find((f) => f.message.includes('local 3.9 ('));
      expect(named?.message).toMatch(
        /the floor fixture's tools-sdk\.py does not compile on local 3\.9 \(CPython 3\.9\.\d+, Unicode 13\.0\.0\)(, [^:]+)*: SyntaxError at line \d+, column \d+: invalid (non-printable )?character/,
      );
      // Each error once: every interpreter that rejects the SDK at the same place is named in the same finding.
      const errors = rejected.map((f) => f.message.slice(f.message.indexOf(': SyntaxError')));
      expect(new Set(errors).size).toBe(errors.length);
      // The interpreters of the floor's Unicode (13.0: CPython 3.9 and 3.10) reject it at the same name.
      const sameUnicode = inventory.interpreters
        .filter((i) => i.version === '3.9' || i.version === '3.10')
        .map((i) => `${i.label} (`);
      for (const name of sameUnicode) expect(named?.message).toContain(name);
    },
  );
});
