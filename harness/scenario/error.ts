import { UserError } from '../user-error.js';

/** A bad input file, reported as `file:line:column: message` followed by a hint on how to fix it. */
export class InputError extends UserError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    problem: string,
    hint: string,
  ) {
    super(problem, { place: { file, line, column }, hint });
  }
}
