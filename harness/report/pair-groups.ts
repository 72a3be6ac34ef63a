/** Pairs that say the same thing, said once: the pairs and their names in the fewest words. */
export interface PairGroup<P> {
  pairs: P[];
  /**
   * `checkout × python`; `checkout, refund × python, pyodide` when the pairs are every scenario × every runtime named;
   * else a list.
   */
  names: string;
}

/**
 * Groups pairs by everything each would print (`said`: its line and its reason, say), in the order they
 * first appear: pairs that fail alike, for the same reason, are one entry under all their names.
 */
export function pairGroups<P extends { scenario: string; runtime: string }>(
  pairs: readonly P[],
  said: (pair: P) => string,
): PairGroup<P>[] {
  const groups = new Map<string, P[]>();
  for (const pair of pairs) {
    const key = said(pair);
    groups.set(key, [...(groups.get(key) ?? []), pair]);
  }
  return [...groups.values()].map((grouped) => ({ pairs: grouped, names: namesOf(grouped) }));
}

function namesOf(pairs: ReadonlyArray<{ scenario: string; runtime: string }>): string {
  const scenarios = [...new Set(pairs.map((p) => p.scenario))];
  const runtimes = [...new Set(pairs.map((p) => p.runtime))];
  if (pairs.length > 1 && scenarios.length * runtimes.length === pairs.length)
    return `${scenarios.join(', ')} × ${runtimes.join(', ')}`;
  return pairs.map((p) => `${p.scenario} × ${p.runtime}`).join(', ');
}
