import { UserError } from '../user-error.js';

/** Input `concord check` cannot read as a model-visible request or SDK: exit 2, naming the file and the place. */
export class CheckInputError extends UserError {
  constructor(file: string, problem: string, hint: string, line?: number, column?: number) {
    super(problem, {
      place: { file, ...(line === undefined ? {} : { line, ...(column === undefined ? {} : { column }) }) },
      hint,
    });
  }
}
