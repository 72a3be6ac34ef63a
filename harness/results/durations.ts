import { readResults } from './merge.js';

/** Milliseconds per `scenario/runtime` recorded in an earlier results file, for balancing shards by time. */
export async function pairDurations(file: string): Promise<Record<string, number>> {
  const results = await readResults(file);
  const durations: Record<string, number> = {};
  for (const pair of results.pairs) {
    const t = pair.times;
    durations[`${pair.scenario}/${pair.runtime}`] = t.assembly + (t.boot ?? 0) + t.model + t.runtime + t.checks;
  }
  return durations;
}
