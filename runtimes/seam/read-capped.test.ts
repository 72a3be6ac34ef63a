import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCapped } from './read-capped.js';

/** A stream that gives `total` bytes in chunks of 4, then ends. */
function bytes(total: number): Readable {
  const data = Buffer.alloc(total, 0x61);
  const chunks = Array.from({ length: Math.ceil(total / 4) }, (_, i) => data.subarray(i * 4, i * 4 + 4));
  return Readable.from(chunks);
}

describe('readCapped', () => {
  it('gives everything up to the cap, across chunks, and nothing past it', async () => {
    const cap = 10;
    expect((await readCapped(bytes(cap - 1), cap))?.length).toBe(cap - 1);
    expect((await readCapped(bytes(cap), cap))?.length).toBe(cap);
    expect(await readCapped(bytes(cap + 1), cap)).toBeUndefined();
  });

  it('stops a stream that goes past the cap and would never end', async () => {
    const endless = new Readable({ read() {} });
    endless.push(Buffer.alloc(11));
    expect(await readCapped(endless, 10)).toBeUndefined();
    expect(endless.destroyed).toBe(true);
  });

  it('gives an empty buffer for a stream that ends at once', async () => {
    expect(await readCapped(bytes(0), 10)).toEqual(Buffer.alloc(0));
  });
});
