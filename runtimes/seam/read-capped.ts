import type { Readable } from 'node:stream';

/**
 * Everything `stream` gives until it closes, or undefined once it gives more than `maxBytes`: then what came is
 * let go and the stream destroyed, so a peer cannot make the host hold an unbounded reply.
 */
export function readCapped(stream: Readable, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    stream.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length <= maxBytes) return void chunks.push(chunk);
      chunks.length = 0;
      stream.destroy();
    });
    stream.once('close', () => resolve(length <= maxBytes ? Buffer.concat(chunks) : undefined));
  });
}
