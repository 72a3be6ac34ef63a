import { Buffer } from 'node:buffer';

/**
 * The one rule for what a program's output costs, applied by every backend (and mirrored by the guests
 * that stop a flood before it reaches the host):
 *   - a printed line costs its UTF-8 bytes plus one for its newline, as it would on a terminal;
 *   - the returned value costs the UTF-8 bytes of its JSON text;
 *   - bytes a program writes straight to its standard file descriptors (Python's `os.write(1, …)`) cost
 *     their number: they are not shown, but they are output;
 *   - a run whose total is above the cap ends with kind `output-limit`; exactly the cap is fine.
 */
export function logLineBytes(line: string): number {
  return Buffer.byteLength(line, 'utf8') + 1;
}

export function valueBytes(jsonText: string): number {
  return Buffer.byteLength(jsonText, 'utf8');
}

/** The output a run has spent against its cap. */
export class OutputBudget {
  #spent = 0;

  constructor(readonly limitBytes: number) {}

  get spent(): number {
    return this.#spent;
  }

  /** Counts one printed line; false once the run is over its cap. */
  log(line: string): boolean {
    return this.#spend(logLineBytes(line));
  }

  /** Counts the returned value's JSON text; false once the run is over its cap. */
  value(jsonText: string): boolean {
    return this.#spend(valueBytes(jsonText));
  }

  /** Counts bytes the guest already measured with the same rule; false once the run is over its cap. */
  bytes(count: number): boolean {
    return this.#spend(count);
  }

  get exceeded(): boolean {
    return this.#spent > this.limitBytes;
  }

  #spend(bytes: number): boolean {
    this.#spent += bytes;
    return !this.exceeded;
  }
}
