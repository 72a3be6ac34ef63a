/**
 * Runs `work` on every item with at most `limit` at a time and returns the results in the items' order.
 * `settled(result, index)` is called in that order too, as soon as every earlier item has finished, so
 * progress can be printed as it happens and still read like a serial run. Items start in their order, except
 * that an item `ready` says no to waits while a later one is ready (the ready ones keep their order too).
 */
export async function inOrder<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  settled: (result: R, index: number) => void,
  ready: (item: T) => boolean = () => true,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  const done: boolean[] = new Array(items.length).fill(false);
  const started: boolean[] = new Array(items.length).fill(false);
  let left = items.length;
  let reported = 0;
  /** The first item not started yet that is ready, else the first not started. */
  const pick = (): number => {
    let first = -1;
    for (let i = 0; i < items.length; i++) {
      if (started[i]) continue;
      if (ready(items[i]!)) return i;
      if (first < 0) first = i;
    }
    return first;
  };
  const lane = async (): Promise<void> => {
    while (left > 0) {
      const index = pick();
      started[index] = true;
      left--;
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
