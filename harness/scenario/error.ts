/** A bad input file, reported as `file:line:column: message` followed by a hint on how to fix it. */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly problem: string,
    readonly hint: string,
  ) {
    super(`${file}:${line}:${column}: ${problem}\n  hint: ${hint}`);
    this.name = 'InputError';
  }
}
