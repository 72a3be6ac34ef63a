import { afterAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../codemode/schema/corpus/load.js';
import { renderPythonSdk } from '../../codemode/sdk/python/index.js';
import type { PythonVersion, ToolDefinition } from '../../codemode/tools/types.js';
import { runSnapshots } from '../../runtimes/test/pyodide-snapshots.js';
import { adversarialTools } from '../probe/adversarial-tools.js';
import { describeRejection } from './describe.js';
import { InterpreterInventory } from './inventory.js';
import {
  collidingBaseToolSets,
  hostileToolSet,
  NEWER_THAN_13,
  obj,
  randomToolSets,
  repeatedObjectToolSets,
  sharedRootToolSets,
} from './test/tool-sets.js';
import { compareVersions } from './types.js';

// concord's own stubs, executed (not only compiled) as modules on every CPython here from the floor up:
// local interpreters, the runtime images and each Pyodide release. Rendered for 3.9 and 3.10 they must not
// import NotRequired (3.11) nor write `A | B` (a TypeError in a 3.9 class body); for 3.11 the modern idioms
// stay and must run from 3.11 on. One batch, so one process or instance, per interpreter. The corpus at floor
// 3.9 is here too, so corpus-compile.test.ts compiles it only on the interpreters below 3.9. Pyodide boots
// from the run's memory snapshots (this is no test of how an interpreter boots).

const FLOORS: readonly PythonVersion[] = ['3.9', '3.10', '3.11'];
const corpus = loadCorpus();
const toolSets: Array<{ name: string; tools: ToolDefinition[] }> = [
  ...corpus.map((source) => ({ name: `corpus ${source.file}`, tools: source.tools })),
  { name: 'the whole corpus', tools: corpus.flatMap((source) => source.tools) },
  { name: 'the adversarial probe', tools: adversarialTools() },
  { name: 'the hostile set', tools: hostileToolSet() },
  // Letters newer than Unicode 13.0 (3.9, 3.10): bare names from the floor whose tables know them, else not.
  {
    name: 'names newer than Unicode 13.0',
    tools: NEWER_THAN_13.map((char) => ({
      name: `x${char}`,
      description: '',
      parameters: obj({ [`y${char}`]: { type: 'string' } }),
    })),
  },
  // Two tools whose names end in a word starting with such a letter (`get_𐕰z`, `put_𐕰z`), taking and returning the
  // same: the shared types are named after the word as the floor spells it (`ZArgs` at 3.9, `𐕰zArgs` at 3.13).
  {
    name: 'shared roots named by words newer than Unicode 13.0',
    tools: NEWER_THAN_13.flatMap((char) =>
      ['get', 'put'].map((verb) => ({
        name: `${verb}_${char}z`,
        description: '',
        parameters: obj({ [`${char}w`]: { type: 'string' } }),
        output: obj({ [`${char}a`]: { type: 'string' }, b: { type: 'integer' } }),
      })),
    ),
  },
  ...randomToolSets(60).map((tools, i) => ({ name: `random set ${i}`, tools })),
  // One object met in several places is one class: written before every class that names it.
  ...repeatedObjectToolSets(40).map((tools, i) => ({ name: `repeated objects ${i}`, tools })),
  // Roots several tools share, named after what they share, beside names that own those names already.
  ...sharedRootToolSets(30).map((tools, i) => ({ name: `shared roots ${i}`, tools })),
  ...collidingBaseToolSets(20).map((tools, i) => ({ name: `colliding bases ${i}`, tools })),
];
const rendered = FLOORS.flatMap((floor) =>
  toolSets.map((set) => ({ floor, name: set.name, source: renderPythonSdk(set.tools, { pythonFloor: floor }) })),
);

const inventory = await InterpreterInventory.discover({ snapshots: runSnapshots() });
const interpreters = inventory.interpreters.filter((i) => compareVersions(i.version, FLOORS[0]!) >= 0);
console.log(
  `stubs executed on: ${interpreters.map((i) => i.label).join(', ')}${inventory.absent.length ? `; absent: ${inventory.absent.join('; ')}` : ''}`,
);
afterAll(() => inventory.dispose());

describe('concord stubs import on every CPython from their floor up', () => {
  it('at floors 3.9, 3.10 and 3.11, for every tool set of the corpus tests', { timeout: 900_000 }, async () => {
    expect(rendered.length).toBeGreaterThan(200);
    const failures = await Promise.all(
      interpreters.map(async (interpreter) => {
        const mine = rendered.filter((r) => compareVersions(interpreter.version, r.floor) >= 0);
        const report = await inventory.verifyOn(
          interpreter,
          mine.map((r) => r.source),
        );
        const who = (i: number) =>
          `${interpreter.label} (CPython ${report.python}), ${mine[i]!.name} at floor ${mine[i]!.floor}`;
        if (report.importError !== undefined) return [`${interpreter.label}: ${report.importError}`];
        const version = report.python.startsWith(`${interpreter.version}.`)
          ? []
          : [`${interpreter.label} reports CPython ${report.python}`];
        return [
          ...version,
          ...report.results.flatMap((compiled, i) => {
            if (!compiled.ok) return [`${who(i)} does not compile: ${describeRejection(compiled, mine[i]!.source)}`];
            const imported = report.imports[i]!;
            return imported.ok ? [] : [`${who(i)}: ${describeRejection(imported, mine[i]!.source)}`];
          }),
        ];
      }),
    );
    expect(failures.flat()).toEqual([]);
  });

  it('below 3.11 import no NotRequired/Required from typing (executing them on 3.9 and 3.10 proves the rest)', () => {
    for (const { floor, name, source } of rendered) {
      if (floor === '3.11') continue;
      expect(
        source.split('\n').filter((line) => /^from typing import .*\b(NotRequired|Required)\b/.test(line)),
        `${name} at ${floor}`,
      ).toEqual([]);
    }
  });

  it('the import check can fail: stubs for 3.11 raise on an interpreter below it', { timeout: 300_000 }, async () => {
    const older = interpreters.find((i) => compareVersions(i.version, '3.11') < 0);
    if (older === undefined) return;
    const modern = rendered.find((r) => r.floor === '3.11' && r.source.includes('NotRequired'))!;
    const [outcome] = (await inventory.verifyOn(older, [modern.source])).imports;
    expect(outcome).toMatchObject({
      ok: false,
      name: 'ImportError',
      line: expect.any(Number),
      column: expect.any(Number),
    });
  });

  it("runs declarations that import nothing with typing's names bound; a block that imports runs as written", {
    timeout: 300_000,
  }, async () => {
    // A reader's block, as some renderers write theirs; the same block importing one name it uses and not another.
    const reader = 'class Forecast(TypedDict):\n    city: str\n    tags: List[str]\n\nUnit = Literal["c", "f"]\n';
    const partial = `from typing import TypedDict\n${reader}`;
    const kinds = new Set<string>();
    for (const interpreter of interpreters) {
      if (kinds.has(interpreter.kind)) continue;
      kinds.add(interpreter.kind);
      const { imports } = await inventory.verifyOn(interpreter, [reader, partial]);
      expect([interpreter.label, imports]).toEqual([
        interpreter.label,
        [{ ok: true }, expect.objectContaining({ ok: false, name: 'NameError', line: 4 })],
      ]);
    }
    expect(kinds.size).toBeGreaterThan(0);
  });

  it("gives stubs that import from the sandbox's tools package that package, and no other missing one", {
    timeout: 300_000,
  }, async () => {
    const catalog =
      'from tools.notes import add_note\nimport tools.calendar.week\n\ndef add_note(text: str) -> dict: ...\n\nweek = tools.calendar.week.first\n';
    const kinds = new Set<string>();
    for (const interpreter of interpreters) {
      if (kinds.has(interpreter.kind)) continue;
      kinds.add(interpreter.kind);
      const { imports } = await inventory.verifyOn(interpreter, [catalog, 'from toolbox import add_note\n', catalog]);
      expect([interpreter.label, imports]).toEqual([
        interpreter.label,
        [
          { ok: true },
          expect.objectContaining({ ok: false, name: 'ModuleNotFoundError', line: 1 }),
          // Provided for one module only: the next finds it again, not left behind by the first.
          { ok: true },
        ],
      ]);
    }
    expect(kinds.size).toBeGreaterThan(0);
  });

  it('the import check can fail on Pyodide too: a source that does not compile, one that raises where it is executed', {
    timeout: 300_000,
  }, async () => {
    const pyodide = interpreters.find((i) => i.kind === 'pyodide');
    if (pyodide === undefined) return;
    const report = await inventory.verifyOn(pyodide, [
      'x = 1\n',
      'def f(:\n    pass\n',
      'x = 1\nfrom typing import NotAName\n',
    ]);
    expect(report.results).toEqual([
      { ok: true },
      expect.objectContaining({ ok: false, name: 'SyntaxError', line: 1 }),
      { ok: true },
    ]);
    expect(report.imports).toEqual([
      { ok: true },
      null,
      expect.objectContaining({ ok: false, name: 'ImportError', line: 2, column: 20 }),
    ]);
  });
});
