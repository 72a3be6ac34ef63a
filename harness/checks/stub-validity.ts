import { DEFAULT_PYTHON_FLOOR, type PythonVersion } from '../../codemode/index.js';
import { describeRejection } from '../interpreters/describe.js';
import type { InterpreterInventory } from '../interpreters/inventory.js';
import { compareVersions, type StubCell } from '../interpreters/types.js';
import type { Session } from '../session.js';
import { SDK_FILE } from '../snapshot/transcript.js';
import type { Check, CheckInput, Finding } from './types.js';

const ID = 'stub-validity';
/** The findings of executing the stubs as a module, beside compiling them. */
const IMPORT_ID = 'stub-import';
/** The snapshot file that holds the Python `tools:sdk` block as the model read it. */
const STUBS = SDK_FILE.python;

export interface StubValidityOptions {
  /** Where the interpreters come from (default: the session's inventory). */
  inventory?: () => Promise<InterpreterInventory>;
  /** The floor the stubs must compile from; default the gate's floor (`CheckInput.floor`). */
  floor?: PythonVersion;
}

/** A Python SDK as the stub matrix judges it: one row of cells (one per interpreter), and what failed. */
export interface StubVerdict {
  findings: Finding[];
  cells: Array<Omit<StubCell, 'scenario' | 'runtime'>>;
}

/**
 * Compiles a Python SDK block on every interpreter of `inventory` and executes it there as a module (one round trip
 * per interpreter for both, all interpreters at once): stubs a model imitates must not only parse on the floor but
 * run there (`from typing import NotRequired` or `int | str` in a class body compile on 3.9 and raise when executed).
 * A rejection or a failed import at or above the floor fails; below it is a note. An interpreter that cannot run at
 * all fails too (at or above the floor): the matrix would otherwise pass with a hole in it. `file` names the block in
 * what is said (`tools-sdk.py`, or the request it came from).
 */
export async function judgeStubs(
  sdk: string,
  floor: PythonVersion,
  inventory: InterpreterInventory,
  file: string = STUBS,
): Promise<StubVerdict> {
  const findings: Finding[] = [];
  const cells: StubVerdict['cells'] = [];
  const add = (severity: Finding['severity'], message: string) => findings.push({ check: ID, severity, message });
  if (!inventory.interpreters.some((i) => compareVersions(i.version, floor) >= 0)) {
    add(
      'error',
      `no Python interpreter at or above the floor ${floor} is available to compile ${file} (${inventory.absent.join('; ') || 'none found'})`,
    );
  }
  const answers = await inventory.verifyEverywhere([sdk]);
  for (const answer of answers) {
    const { interpreter } = answer;
    const belowFloor = compareVersions(interpreter.version, floor) < 0;
    const base = { interpreter: interpreter.label, version: interpreter.version, belowFloor };
    const severity = belowFloor ? 'note' : 'error';
    const floorText = belowFloor ? ` (below the floor ${floor}: not a failure)` : '';
    if ('error' in answer) {
      cells.push({ ...base, outcome: 'unavailable', error: answer.error });
      add(
        severity,
        `${interpreter.label} (${interpreter.detail}) could not compile ${file}${floorText}: ${answer.error}`,
      );
      continue;
    }
    const { python, unicode, results, imports, importError } = answer.report;
    const outcome = results[0]!;
    const who = `${interpreter.label} (CPython ${python}, Unicode ${unicode}, ${interpreter.detail})`;
    if (!outcome.ok) {
      const error = describeRejection(outcome, sdk);
      cells.push({ ...base, python, unicode, outcome: 'rejected', error });
      add(severity, `${file} does not compile on ${who}${floorText}: ${error}`);
      continue;
    }
    const result = imports[0];
    if (importError !== undefined || !result) {
      const error = importError ?? 'no module verdict came back';
      cells.push({ ...base, python, unicode, outcome: 'unavailable', error });
      findings.push({
        check: IMPORT_ID,
        severity,
        message: `${interpreter.label} (${interpreter.detail}) could not execute ${file} as a module${floorText}: ${error}`,
      });
      continue;
    }
    if (result.ok) {
      cells.push({ ...base, python, unicode, outcome: 'ok' });
      continue;
    }
    const error = describeRejection(result, sdk);
    cells.push({ ...base, python, unicode, outcome: 'import-failed', error });
    findings.push({
      check: IMPORT_ID,
      severity,
      message: `${file} compiles but fails when executed as a module on ${who}${floorText}: ${error}`,
    });
  }
  return { findings, cells };
}

/** The gate's check: the stubs of each scenario × python runtime, its row of the matrix kept in the session. */
export function stubValidityCheck(options: StubValidityOptions = {}): Check {
  async function run({ scenario, runtime, files, floor: gateFloor, session }: CheckInput): Promise<Finding[]> {
    const pair = `${scenario.name}/${runtime.name}`;
    session.stubCells.delete(pair);
    const sdk = files.get(STUBS);
    if (runtime.language !== 'python' || sdk === undefined) return [];
    const floor = options.floor ?? gateFloor ?? DEFAULT_PYTHON_FLOOR;
    const inventory = await (options.inventory ?? (() => session.inventory()))();
    const { findings, cells } = await judgeStubs(sdk, floor, inventory);
    session.stubCells.set(
      pair,
      cells.map((cell) => ({ scenario: scenario.name, runtime: runtime.name, ...cell })),
    );
    return findings;
  }

  return { id: ID, run };
}

/** The instance the gate runs (see index.ts). */
export const stubValidity = stubValidityCheck();

/**
 * Every cell of the latest run of each scenario × runtime the session's stub validity saw, in the order it saw them.
 */
export function stubMatrix(session: Session): StubCell[] {
  return [...session.stubCells.values()].flat();
}
