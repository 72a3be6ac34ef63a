import { DEFAULT_PYTHON_FLOOR, type PythonVersion } from '../../codemode/index.js';
import { describeRejection, rejectionMessage } from '../interpreters/describe.js';
import { importsNothing } from '../interpreters/import-script.js';
import type { InterpreterInventory } from '../interpreters/inventory.js';
import { type CompileOutcome, compareVersions, type StubCell } from '../interpreters/types.js';
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
  if (!inventory.interpreters.some((i) => compareVersions(i.version, floor) >= 0)) {
    findings.push({
      check: ID,
      severity: 'error',
      message: `no Python interpreter at or above the floor ${floor} is available to compile ${file} (${inventory.absent.join('; ') || 'none found'})`,
    });
  }
  const failures: StubFailure[] = [];
  const answers = await inventory.verifyEverywhere([sdk]);
  for (const answer of answers) {
    const { interpreter } = answer;
    const belowFloor = compareVersions(interpreter.version, floor) < 0;
    const base = { interpreter: interpreter.label, version: interpreter.version, belowFloor };
    const fail = (check: string, key: string, who: string, says: (who: string) => string) =>
      failures.push({ check, belowFloor, key, label: interpreter.label, version: interpreter.version, who, says });
    const detailed = `${interpreter.label} (${interpreter.detail})`;
    if ('error' in answer) {
      cells.push({ ...base, outcome: 'unavailable', error: answer.error });
      fail(ID, `unavailable ${answer.error}`, detailed, (who) => `${who} could not compile ${file}: ${answer.error}`);
      continue;
    }
    const { python, unicode, results, imports, importError } = answer.report;
    const outcome = results[0]!;
    const who = `${interpreter.label} (CPython ${python}, Unicode ${unicode}, ${interpreter.detail})`;
    if (!outcome.ok) {
      const error = describeRejection(outcome, sdk);
      cells.push({ ...base, python, unicode, outcome: 'rejected', error });
      fail(ID, `rejected ${rejectionKey(outcome)}`, who, (who) => `${file} does not compile on ${who}: ${error}`);
      continue;
    }
    const result = imports[0];
    if (importError !== undefined || !result) {
      const error = importError ?? 'no module verdict came back';
      cells.push({ ...base, python, unicode, outcome: 'unavailable', error });
      fail(
        IMPORT_ID,
        `unexecuted ${error}`,
        detailed,
        (who) => `${who} could not execute ${file} as a module: ${error}`,
      );
      continue;
    }
    if (result.ok) {
      cells.push({ ...base, python, unicode, outcome: 'ok' });
      continue;
    }
    const error = describeRejection(result, sdk);
    cells.push({ ...base, python, unicode, outcome: 'import-failed', error });
    // A block that imports nothing ran with typing's names: the name it lacks is not one this typing has.
    const compiles = result.name === 'NameError' && importsNothing(sdk) ? READER_NAMES : 'compiles';
    fail(
      IMPORT_ID,
      `import-failed ${rejectionKey(result)}`,
      who,
      (who) => `${file} ${compiles} but fails when executed as a module on ${who}: ${error}`,
    );
  }
  for (const group of sameFailures(failures)) findings.push(groupFinding(group, floor));
  return { findings, cells };
}

/** How a block that imports nothing and fails on a name is told: it ran with the names its interpreter's typing has. */
const READER_NAMES = "compiles and imports nothing (it ran with the names of the interpreter's typing bound)";

/** One interpreter's failure, before the failures that are one fault are put together. */
interface StubFailure {
  check: string;
  belowFloor: boolean;
  /** What makes two interpreters' failures one fault. */
  key: string;
  label: string;
  version: string;
  /** The interpreter as a finding names it (with its versions and where it comes from). */
  who: string;
  says: (who: string) => string;
}

/** A rejection's exception, line and message: not its column, which CPython places better from 3.11 on. */
function rejectionKey(outcome: Exclude<CompileOutcome, { ok: true }>): string {
  return JSON.stringify([outcome.name, outcome.line, rejectionMessage(outcome)]);
}

/** The failures that are one fault (one check, one side of the floor, one key), in the order first met. */
function sameFailures(failures: readonly StubFailure[]): StubFailure[][] {
  const groups = new Map<string, StubFailure[]>();
  for (const failure of failures) {
    const key = JSON.stringify([failure.check, failure.belowFloor, failure.key]);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [failure]);
    else group.push(failure);
  }
  return [...groups.values()];
}

/**
 * One finding for a fault every interpreter of `group` met: told as the newest of them saw it (the most exact
 * place), naming the others, so a fault on nine interpreters is one line to read, not nine.
 */
function groupFinding(group: readonly StubFailure[], floor: PythonVersion): Finding {
  let told = group[0]!;
  for (const failure of group) if (compareVersions(failure.version, told.version) > 0) told = failure;
  const others = group.filter((failure) => failure !== told).map((failure) => failure.label);
  const more = others.length === 0 ? '' : ` and ${others.length} more (${others.join(', ')})`;
  const below = told.belowFloor ? ` (below the floor ${floor}: not a failure)` : '';
  return {
    check: told.check,
    severity: told.belowFloor ? 'note' : 'error',
    message: told.says(`${told.who}${more}${below}`),
  };
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
