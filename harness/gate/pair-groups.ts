/** Pairs that say the same thing, said once: the line they share and their names in the fewest words. */
export interface PairGroup<P> {
  pairs: P[];
  /** `checkout × python`; `checkout, refund × python, pyodide` when the pairs are every scenario × every runtime named; else a list. */
  names: string;
  line: string;
}

/**
 * Groups pairs by the line each would print (in the order they first appear). A pair that is `alone` (it has
 * more to say, such as a reason) stays a group of its own.
 */
export function pairGroups<P extends { scenario: string; runtime: string }>(pairs: readonly P[], line: (pair: P) => string, alone: (pair: P) => boolean): PairGroup<P>[] {
  const groups = new Map<string, PairGroup<P>>();
  for (const [i, pair] of pairs.entries()) {
    const text = line(pair);
    const key = alone(pair) ? `\u0000${i}` : text;
    const group = groups.get(key) ?? { pairs: [], names: '', line: text };
    group.pairs.push(pair);
    groups.set(key, group);
  }
  return [...groups.values()].map((g) => ({ ...g, names: namesOf(g.pairs) }));
}

function namesOf(pairs: ReadonlyArray<{ scenario: string; runtime: string }>): string {
  const scenarios = [...new Set(pairs.map((p) => p.scenario))];
  const runtimes = [...new Set(pairs.map((p) => p.runtime))];
  if (pairs.length > 1 && scenarios.length * runtimes.length === pairs.length) return `${scenarios.join(', ')} × ${runtimes.join(', ')}`;
  return pairs.map((p) => `${p.scenario} × ${p.runtime}`).join(', ');
}
