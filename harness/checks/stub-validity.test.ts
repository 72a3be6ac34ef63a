import { afterAll, describe, expect, it } from 'vitest';
import { renderSdk } from '../../codemode/run-code/sdk-section.js';
import type { PythonVersion, ToolDefinition } from '../../codemode/tools/types.js';
import { fencedBlock } from '../../contract/sdk-section.js';
import { cpythonImage } from '../../runtimes/cpython/images.js';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { Host } from '../../test/host-requirements.js';
import { runtimeTarget } from '../assembly/runtimes.js';
import { ContainerInterpreter } from '../interpreters/container.js';
import { InterpreterInventory } from '../interpreters/inventory.js';
import { findInterpreters, LocalInterpreter } from '../interpreters/local.js';
import type { PythonInterpreter } from '../interpreters/types.js';
import type { RuntimeName, Scenario } from '../scenario/types.js';
import { Session } from '../session.js';
import { type RunRecord, snapshotFiles } from '../snapshot/transcript.js';
import { stubMatrix, stubValidityCheck } from './stub-validity.js';
import type { CheckInput } from './types.js';
import { viewOfRecord } from './view-of-record.js';

const LOOKUP: ToolDefinition = {
  name: 'lookup',
  description: 'Finds a word.',
  parameters: {
    type: 'object',
    properties: { word: { type: 'string' } },
    required: ['word'],
    additionalProperties: false,
  },
};
// An optional field: `NotRequired` from typing where the floor has it (3.11+), a `total=False` class below.
const DEFINE: ToolDefinition = {
  name: 'define',
  description: 'Defines a word.',
  parameters: {
    type: 'object',
    properties: { word: { type: 'string' }, lang: { type: ['string', 'integer'] } },
    required: ['word'],
  },
};
// U+A7D1 is a letter from Unicode 14.0: a bare name when rendering for 3.11, not for 3.9 (Unicode 13.0).
const INSULAR: ToolDefinition = { ...LOOKUP, name: '\u{A7D1}lossary_lookup' };

// The matrix is the session's: every check below records its cells there.
const session = new Session();
afterAll(() => session.dispose());

function input(name: string, runtime: RuntimeName, sdk: string | undefined, floor: PythonVersion = '3.9'): CheckInput {
  const scenario = {
    name,
    description: '',
    file: `/scenarios/${name}.yml`,
    runtimes: [runtime],
    runtimeConfig: {},
    composition: [{ id: 'tools', plugin: 'concord/tools', config: { mode: 'code' }, line: 1 }],
    script: [],
    expect: {},
  } satisfies Scenario;
  const target = runtimeTarget(runtime, {});
  const record: RunRecord = {
    scenario: name,
    runtime,
    language: target.language,
    isolation: undefined,
    entries: [],
    exchanges:
      sdk === undefined
        ? []
        : [
            {
              request: {
                system: [{ id: 'tools:sdk', text: fencedBlock(sdk, target.language) }],
                tools: [],
                messages: [],
              },
            },
          ],
    programs: [],
  };
  return { view: viewOfRecord(record), floor, session, pair: { scenario, runtime: target, record, files: new Map() } };
}

/** The valid SDK with the colon of the `lookup` method removed. */
function broken(sdk: string): { text: string; line: number } {
  const lines = sdk.split('\n');
  const line = lines.findIndex((l) => l.includes('async def lookup('));
  lines[line] = lines[line]!.replace(/:$/, '');
  return { text: lines.join('\n'), line: line + 1 };
}

describe('stub validity with Pyodide alone', () => {
  const inventory = InterpreterInventory.discover({ pyodide: ['3.13'], containers: false, local: false });
  const check = stubValidityCheck({ inventory: () => inventory });
  afterAll(async () => (await inventory).dispose());
  const valid = renderSdk('python', [LOOKUP]);

  it('passes a valid SDK and fails a broken one with interpreter, versions, line and column', async () => {
    expect(await check.run(input('valid', 'pyodide', valid))).toEqual([]);
    const { text, line } = broken(valid);
    const findings = await check.run(input('broken', 'python', text));
    expect(findings).toHaveLength(1);
    const [finding] = findings;
    expect(finding!.severity).toBe('error');
    expect(finding!.check).toBe('stub-validity');
    expect(finding!.message).toMatch(
      new RegExp(
        `^tools-sdk\\.py does not compile on pyodide 3\\.13 \\(CPython 3\\.13\\.\\d+, Unicode 15\\.1\\.0, Pyodide .*\\): SyntaxError at line ${line}, column \\d+: `,
      ),
    );
    expect(finding!.message).toContain(`${line} |     async def lookup(`);

    const matrix = stubMatrix(session).filter((c) => ['valid', 'broken'].includes(c.scenario));
    expect(matrix.map((c) => [c.scenario, c.runtime, c.interpreter, c.outcome])).toEqual([
      ['valid', 'pyodide', 'pyodide 3.13', 'ok'],
      ['broken', 'python', 'pyodide 3.13', 'rejected'],
    ]);
    expect(matrix[0]).toMatchObject({ unicode: '15.1.0', belowFloor: false });
  });

  it('executes the stubs as a module: a failed import fails the gate with line, column and exception', async () => {
    const text = valid.replace('from typing import ', 'from typing import NoSuchName, ');
    const line = text.split('\n').findIndex((l) => l.includes('NoSuchName')) + 1;
    const findings = await check.run(input('unimportable', 'pyodide', text));
    expect(findings.map((f) => [f.check, f.severity])).toEqual([['stub-import', 'error']]);
    expect(findings[0]!.message).toMatch(
      new RegExp(
        `^tools-sdk\\.py compiles but fails when executed as a module on pyodide 3\\.13 \\(CPython 3\\.13\\.\\d+, Unicode 15\\.1\\.0, Pyodide .*\\): ImportError at line ${line}, column 20: cannot import name 'NoSuchName'`,
      ),
    );
    expect(stubMatrix(session).find((c) => c.scenario === 'unimportable')).toMatchObject({
      outcome: 'import-failed',
      error: expect.stringContaining(`${line} | from typing import NoSuchName`),
    });
  });

  it("reads the block out of a section with prose around it: lines are the block file's", async () => {
    const text = valid.replace('from typing import ', 'from typing import NoSuchName, ');
    const line = text.split('\n').findIndex((l) => l.includes('NoSuchName')) + 1;
    const section =
      '## Writing code for run_code\nCall `await tools.lookup({"word": w})`.\n\n```py\n' +
      text +
      '```\nOnly `tools` and `ToolCallError` exist.\n';
    const record: RunRecord = {
      scenario: 'prose',
      runtime: 'pyodide',
      language: 'python',
      isolation: 'wasm',
      entries: [],
      exchanges: [{ request: { system: [{ id: 'tools:sdk', text: section }], tools: [], messages: [] } }],
      programs: [],
    };
    const files = snapshotFiles(record, packageRoot());
    expect(files.get('tools-sdk.py')).toBe(text);
    const findings = await check.run({ ...input('prose', 'pyodide', undefined), view: viewOfRecord(record) });
    expect(findings.map((f) => f.check)).toEqual(['stub-import']);
    expect(findings[0]!.message).toContain(`ImportError at line ${line}, column 20`);
  });

  it('leaves TypeScript runtimes alone without asking for interpreters', async () => {
    const untouched = stubValidityCheck({
      inventory: () => Promise.reject(new Error('no interpreter should be needed')),
    });
    expect(await untouched.run(input('ts', 'typescript', 'declare const tools: {};\n'))).toEqual([]);
  });
});

const locals = findInterpreters();
const python39 = locals.find((i) => i.unicode === '13.0.0' && i.version === '3.9');
const newer = locals.find((i) => Number(i.version.split('.')[1]) >= 11);
/**
 * The floor and a newer CPython: local interpreters where both are here, the runtime images otherwise (which
 * need Docker: without it the tests skip locally and fail under CI).
 */
const local = python39 !== undefined && newer !== undefined;
const floorPair: PythonInterpreter[] = local
  ? [new LocalInterpreter(python39), new LocalInterpreter(newer)]
  : [
      new ContainerInterpreter('3.9', cpythonImage('3.9').tag),
      new ContainerInterpreter('3.11', cpythonImage('3.11').tag),
    ];

(await Host.with(...(local ? [] : (['docker'] as const)))).describe(
  'stub validity around the floor (CPython 3.9 and a 3.11+)',
  () => {
    const inventory = Promise.resolve(new InterpreterInventory(floorPair));
    afterAll(async () => (await inventory).dispose());
    const check = stubValidityCheck({ inventory: () => inventory });
    // Rendered for 3.11, the Unicode 14.0 letter becomes a bare method name that 3.9 cannot read.
    const unpinned = renderSdk('python', [INSULAR], { pythonFloor: '3.11' });

    it('fails when an interpreter at the floor rejects the stubs, naming its Unicode version', async () => {
      const findings = await check.run(input('past-floor', 'python', unpinned, '3.9'));
      expect(findings.map((f) => f.severity)).toEqual(['error']);
      const [finding] = findings;
      expect(finding!.message).toMatch(
        /does not compile on (local|container) 3\.9 \(CPython 3\.9\.\d+, Unicode 13\.0\.0, .*\): SyntaxError at line \d+, column \d+: invalid .*character/,
      );
    });

    it('only notes a rejection below the floor', async () => {
      const findings = await check.run(input('above-3.9', 'python', unpinned, '3.11'));
      expect(findings.map((f) => f.severity)).toEqual(['note']);
      const [finding] = findings;
      expect(finding!.message).toContain('below the floor 3.11');
      expect(
        stubMatrix(session)
          .filter((c) => c.scenario === 'above-3.9')
          .map((c) => [c.belowFloor, c.outcome]),
      ).toEqual([
        [true, 'rejected'],
        [false, 'ok'],
      ]);
    });

    it('fails stubs that compile on the floor but raise there when executed, naming interpreter, line, column and exception', async () => {
      // Rendered for 3.11: `NotRequired` from typing, which 3.9 lacks (and `str | int`, a TypeError in a 3.9 class
      // body).
      const modern = renderSdk('python', [DEFINE], { pythonFloor: '3.11' });
      const line = modern.split('\n').findIndex((l) => /^from typing import .*NotRequired/.test(l)) + 1;
      const column = modern.split('\n')[line - 1]!.indexOf('NotRequired') + 1;
      const findings = await check.run(input('modern-at-3.9', 'python', modern, '3.9'));
      expect(findings.map((f) => [f.check, f.severity])).toEqual([['stub-import', 'error']]);
      expect(findings[0]!.message).toMatch(
        new RegExp(
          `fails when executed as a module on (local|container) 3\\.9 \\(CPython 3\\.9\\.\\d+, .*\\): ImportError at line ${line}, column ${column}: cannot import name 'NotRequired'`,
        ),
      );
      expect(
        stubMatrix(session)
          .filter((c) => c.scenario === 'modern-at-3.9')
          .map((c) => c.outcome),
      ).toEqual(['import-failed', 'ok']);
      // Below the floor the same failure is a note.
      expect(
        (await check.run(input('modern-at-3.11', 'python', modern, '3.11'))).map((f) => [f.check, f.severity]),
      ).toEqual([['stub-import', 'note']]);
      // `str | int` alone: the class body raises TypeError on 3.9 at the `|`.
      const union = 'from typing import TypedDict, Union\n\nclass DefineArgs(TypedDict):\n    lang: str | int\n';
      const [unionFinding] = await check.run(input('union-at-3.9', 'python', union, '3.9'));
      expect(unionFinding!.message).toMatch(/TypeError at line 4, column 15: unsupported operand type\(s\) for \|/);
      // Rendered for 3.9, the same tool set imports everywhere.
      expect(
        await check.run(input('define-at-3.9', 'python', renderSdk('python', [DEFINE], { pythonFloor: '3.9' }), '3.9')),
      ).toEqual([]);
    });

    it('says a fault every interpreter meets once, told as the newest saw it, naming the others', async () => {
      // `Word` is an unbound name on every CPython (a block that imports typing runs as written).
      const unbound = 'from typing import TypedDict\nclass LookupArgs(TypedDict):\n    word: Word\n';
      const [low, high] = floorPair.map((i) => i.label);
      const findings = await check.run(input('unbound', 'python', unbound, '3.9'));
      expect(findings.map((f) => [f.check, f.severity])).toEqual([['stub-import', 'error']]);
      expect(findings[0]!.message).toMatch(
        new RegExp(
          `^tools-sdk\\.py compiles but fails when executed as a module on ${high} \\(CPython 3\\.1\\d\\.\\d+, [^)]+\\) and 1 more \\(${low}\\): NameError at line 3, column 11: name 'Word' is not defined\\n3 \\| {5}word`,
        ),
      );
      // An ImportError names each interpreter's own typing.py: still one fault.
      const missing = await check.run(input('missing-name', 'python', 'from typing import NoSuchName\n', '3.9'));
      expect(missing.map((f) => f.message.match(/ and 1 more \(/) !== null)).toEqual([true]);
      expect(missing[0]!.message).toMatch(
        /ImportError at line 1, column 20: cannot import name 'NoSuchName' from 'typing'\n1 \| from typing/,
      );
      // Each side of the floor is its own finding: a note below it, an error from it up.
      const split = await check.run(input('unbound-3.11', 'python', unbound, '3.11'));
      expect(split.map((f) => [f.severity, f.message.includes(' more ')])).toEqual([
        ['note', false],
        ['error', false],
      ]);
      expect(split[0]!.message).toContain(`on ${low} (`);
      expect(split[0]!.message).toContain('(below the floor 3.11: not a failure): NameError');
    });

    it('passes the SDK rendered for the floor it runs on', async () => {
      expect(
        await check.run(input('pinned', 'python', renderSdk('python', [INSULAR], { pythonFloor: '3.9' }))),
      ).toEqual([]);
    });
  },
);
