/**
 * Runs `work` on every item with at most `limit` at a time and returns the results in the items' order.
 * `settled(result, index)` is called in that order too, as soon as every earlier item has finished, so
 * progress can be printed as it happens and still read like a serial run.
 */
export async function inOrder<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>, settled: (result: R, index: number) => void): Promise<R[]> {
  const results: R[] = new Array(items.length);
  const done: boolean[] = new Array(items.length).fill(false);
  let next = 0;
  let reported = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
      done[index] = true;
      while (reported < items.length && done[reported]) {
        settled(results[reported]!, reported);
        reported++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}
