import { Buffer } from 'node:buffer';

/**
 * Splits a byte stream into newline-terminated UTF-8 lines: the framing of every channel between a host
 * and its guest. Splitting on the byte 0x0A is safe in UTF-8 (it never occurs inside a character). A line
 * longer than `maxLineBytes` is never held whole: it is dropped and `onOversize` is told, so a peer cannot
 * make the host buffer an unbounded line. Text after the last newline waits for the next chunk.
 */
export class LineSplitter {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #skipping = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onOversize: () => void = () => {},
  ) {}

  /** The lines completed by `chunk`, in order. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let end = chunk.indexOf(0x0a, start); end !== -1; end = chunk.indexOf(0x0a, start)) {
      if (!this.#skipping) {
        if (this.#pendingBytes + (end - start) > this.maxLineBytes) this.#oversize();
        else if (this.#pending.length === 0) lines.push(chunk.toString('utf8', start, end));
        else lines.push(Buffer.concat([...this.#pending, chunk.subarray(start, end)]).toString('utf8'));
      }
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#skipping = false;
      start = end + 1;
    }
    if (!this.#skipping && start < chunk.length) {
      if (this.#pendingBytes + (chunk.length - start) > this.maxLineBytes) {
        this.#oversize();
        this.#skipping = true;
      } else {
        this.#pending.push(chunk.subarray(start));
        this.#pendingBytes += chunk.length - start;
      }
    }
    return lines;
  }

  #oversize(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
    this.onOversize();
  }
}
