/** Where in a file the user's mistake stands; line and column are 1-based. */
export interface Place {
  file: string;
  line?: number;
  column?: number;
}

export interface UserErrorOptions {
  place?: Place;
  /** How to fix it, one line. */
  hint?: string;
  /**
   * 2 (the default) when the input is wrong; 1 when the input was fine but the run could not go on (nothing was
   * written).
   */
  exitCode?: 1 | 2;
}

/**
 * What the user can fix: bad input, a flag that does not fit, a tree in the way. The one error type the
 * command line turns into one line (`file:line:column: problem`, then `hint: …`) and its exit code;
 * anything else that reaches the command line is a bug in concord and says so.
 */
export class UserError extends Error {
  readonly problem: string;
  readonly place: Place | undefined;
  readonly hint: string | undefined;
  readonly exitCode: 1 | 2;

  constructor(problem: string, options: UserErrorOptions = {}) {
    super(
      `${options.place ? `${where(options.place)}: ` : ''}${problem}${options.hint ? `\n  hint: ${options.hint}` : ''}`,
    );
    this.name = new.target.name;
    this.problem = problem;
    this.place = options.place;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? 2;
  }
}

/** A root that cannot serve: the message names the folder, the hint says what to do. */
export class RootError extends UserError {
  constructor(problem: string, hint: string) {
    super(problem, { hint });
  }
}

function where({ file, line, column }: Place): string {
  return line === undefined ? file : column === undefined ? `${file}:${line}` : `${file}:${line}:${column}`;
}
