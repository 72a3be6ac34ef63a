import type { PythonVersion } from '../../../codemode/index.js';
import { type Finding, STUB_IMPORT, STUB_VALIDITY } from '../../findings.js';
import { describeRejection, rejectionMessage } from '../../interpreters/describe.js';
import { importsNothing } from '../../interpreters/import-script.js';
import type { InterpreterInventory } from '../../interpreters/inventory.js';
import { type CompileOutcome, compareVersions } from '../../interpreters/types.js';
import type { StubJudge, StubVerdict } from '../pack.js';
import { floorUnicode, pastFloorNames, showPastFloor } from './floor-names.js';

/** The snapshot file that holds the Python `tools:sdk` block. */
export const PYTHON_SDK_FILE = 'tools-sdk.py';

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
  file: string,
): Promise<StubVerdict> {
  const findings: Finding[] = [];
  const cells: StubVerdict['cells'] = [];
  if (!inventory.interpreters.some((i) => compareVersions(i.version, floor) >= 0)) {
    findings.push({
      check: STUB_VALIDITY,
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
      fail(
        STUB_VALIDITY,
        `unavailable ${answer.error}`,
        detailed,
        (who) => `${who} could not compile ${file}: ${answer.error}`,
      );
      continue;
    }
    const { python, unicode, results, imports, importError } = answer.report;
    const outcome = results[0]!;
    const who = `${interpreter.label} (CPython ${python}, Unicode ${unicode}, ${interpreter.detail})`;
    if (!outcome.ok) {
      const error = describeRejection(outcome, sdk);
      cells.push({ ...base, python, unicode, outcome: 'rejected', error });
      fail(
        STUB_VALIDITY,
        `rejected ${rejectionKey(outcome)}`,
        who,
        (who) => `${file} does not compile on ${who}: ${error}`,
      );
      continue;
    }
    const result = imports[0];
    if (importError !== undefined || !result) {
      const error = importError ?? 'no module verdict came back';
      cells.push({ ...base, python, unicode, outcome: 'unavailable', error });
      fail(
        STUB_IMPORT,
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
      STUB_IMPORT,
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

/**
 * The names of a Python SDK block CPython `floor` cannot read (a letter its Unicode tables do not know), as one
 * sentence; undefined when it can read them all.
 */
function pastFloor(sdk: string, floor: PythonVersion): string | undefined {
  const past = pastFloorNames(sdk, floor);
  if (past.length === 0) return undefined;
  return `${past.length === 1 ? 'a name' : `${past.length} names`} that CPython ${floor} (Unicode ${floorUnicode(floor)}) cannot read: ${showPastFloor(past)}`;
}

export const PYTHON_STUBS: StubJudge = { judge: judgeStubs, pastFloor };
