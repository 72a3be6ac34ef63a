import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';

/** What a line reader reports: each complete line, or that a line outgrew the cap (reading then stops). */
export interface LineHandlers {
  onLine(line: string): void;
  onOversize(): void;
}

/**
 * Splits a byte stream into newline-terminated UTF-8 lines, the framing of the Pyodide channel. A line past
 * `maxLineBytes` is never buffered whole: the reader gives up at once, so a peer cannot make it hold an
 * unbounded line in memory. Splitting on the byte 0x0A is safe in UTF-8 (it never occurs inside a character).
 */
export function readLines(stream: Readable, maxLineBytes: number, handlers: LineHandlers): void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let stopped = false;
  const onData = (chunk: Buffer): void => {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1 && !stopped; end = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, end);
      start = end + 1;
      if (pendingBytes + piece.length > maxLineBytes) return stop();
      const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
      pending = [];
      pendingBytes = 0;
      handlers.onLine(line.toString('utf8'));
    }
    if (stopped || start === chunk.length) return;
    const rest = chunk.subarray(start);
    if (pendingBytes + rest.length > maxLineBytes) return stop();
    pending.push(rest);
    pendingBytes += rest.length;
  };
  const stop = (): void => {
    stopped = true;
    pending = [];
    stream.off('data', onData);
    stream.resume();
    handlers.onOversize();
  };
  stream.on('data', onData);
}
