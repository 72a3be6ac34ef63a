import { describeRejection } from './describe.js';
import type { InterpreterInventory } from './inventory.js';
import { compareVersions, type PythonInterpreter } from './types.js';

/** How one interpreter at or above the floor took one source. */
export interface FloorCell {
  interpreter: string;
  /** `major.minor`. */
  version: string;
  detail: string;
  /** What the interpreter reported; absent when it could not run. */
  python?: string;
  unicode?: string;
  outcome: 'ok' | 'rejected' | 'unavailable';
  /** The rejection with line and column (and the source line under a caret), or why it could not run. */
  error?: string;
  /** Where the rejection points, when it does. */
  line?: number;
  column?: number;
}

/** `local 3.9 (CPython 3.9.2, Unicode 13.0.0)`: an interpreter as a finding names it. */
export function interpreterName(cell: FloorCell): string {
  return cell.python === undefined
    ? `${cell.interpreter} (${cell.detail})`
    : `${cell.interpreter} (CPython ${cell.python}, Unicode ${cell.unicode})`;
}

/** Where a rejection points (`line 3, column 7`), or, for one that names no place, the first line of what it says. */
export function rejectionPlace(cell: Pick<FloorCell, 'error' | 'line' | 'column'>): string {
  if (cell.line === undefined) return (cell.error ?? 'rejected').split('\n')[0]!;
  return cell.column === undefined ? `line ${cell.line}` : `line ${cell.line}, column ${cell.column}`;
}

/** The interpreters at or above `floor`, oldest first. */
export function fromFloor(inventory: InterpreterInventory, floor: string): PythonInterpreter[] {
  return inventory.interpreters.filter((i) => compareVersions(i.version, floor) >= 0);
}

/**
 * Compiles every source on every interpreter at or above `floor`, one batch per interpreter, all at once:
 * one row of cells per source, in the order of `fromFloor`.
 */
export async function compileFromFloor(
  inventory: InterpreterInventory,
  floor: string,
  sources: readonly string[],
): Promise<FloorCell[][]> {
  const interpreters = fromFloor(inventory, floor);
  const answers = await Promise.all(
    interpreters.map((interpreter) =>
      inventory.compileOn(interpreter, sources).then(
        (report) => ({ interpreter, report }),
        (error: unknown) => ({ interpreter, error: error instanceof Error ? error.message : String(error) }),
      ),
    ),
  );
  return sources.map((source, index) =>
    answers.map((answer): FloorCell => {
      const { label, version, detail } = answer.interpreter;
      const base = { interpreter: label, version, detail };
      if ('error' in answer) return { ...base, outcome: 'unavailable', error: answer.error };
      const { python, unicode, results } = answer.report;
      const outcome = results[index]!;
      if (outcome.ok) return { ...base, python, unicode, outcome: 'ok' };
      return {
        ...base,
        python,
        unicode,
        outcome: 'rejected',
        error: describeRejection(outcome, source),
        ...(outcome.line !== null ? { line: outcome.line } : {}),
        ...(outcome.column !== null ? { column: outcome.column } : {}),
      };
    }),
  );
}
