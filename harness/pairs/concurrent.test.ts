import { describe, expect, it } from 'vitest';
import { inOrder } from './concurrent.js';

describe('inOrder', () => {
  it('starts a later ready item before an earlier one that is not ready, and still reports in order', async () => {
    const ready = new Set(['b', 'c']);
    const started: string[] = [];
    const reported: string[] = [];
    const results = await inOrder(
      ['a', 'b', 'c', 'd'],
      1,
      async (item) => {
        started.push(item);
        // Once c has run, everything is ready.
        if (item === 'c') ready.add('a').add('d');
        return item.toUpperCase();
      },
      (result) => reported.push(result),
      (item) => ready.has(item),
    );
    expect(started).toEqual(['b', 'c', 'a', 'd']);
    expect(results).toEqual(['A', 'B', 'C', 'D']);
    expect(reported).toEqual(['A', 'B', 'C', 'D']);
  });

  it('takes the items in their order when none is ready, or without a readiness test', async () => {
    for (const ready of [() => false, undefined]) {
      const started: number[] = [];
      await inOrder(
        [1, 2, 3],
        2,
        async (item) => void started.push(item),
        () => {},
        ready,
      );
      expect(started).toEqual([1, 2, 3]);
    }
  });
});
