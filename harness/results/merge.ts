import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { RUNTIME_NAMES } from '../scenario/types.js';
import { RESULTS_VERSION, type GateResults } from './format.js';

/** Results that cannot be merged; the message names the files and what to do. Exit 2. */
export class MergeError extends Error {
  override name = 'MergeError';
}

/** Reads one results file; anything but a results file of this version is a MergeError naming it. */
export async function readResults(file: string): Promise<GateResults> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new MergeError(`${file}: not a readable results file (${(error as Error).message.split('\n')[0]}); pass the files written by \`concord gate --results FILE\``);
  }
  const version = (data as { concordResults?: unknown } | null)?.concordResults;
  if (version !== RESULTS_VERSION) {
    throw new MergeError(`${file}: results format ${JSON.stringify(version ?? null)}, this concord reads format ${RESULTS_VERSION}; run every shard and the merge with one concord version`);
  }
  const results = data as GateResults;
  if (!Array.isArray(results.pairs) || !Array.isArray(results.proposals) || typeof results.configuration !== 'object') {
    throw new MergeError(`${file}: results file without pairs, proposals or configuration; it was cut short or edited — run the shard again`);
  }
  return results;
}

const pairKey = (p: { scenario: string; runtime: string }) => `${p.scenario}/${p.runtime}`;

/** The order an unsharded run reports pairs in: scenarios by name, runtimes in their fixed order. */
function pairOrder(a: { scenario: string; runtime: string }, b: { scenario: string; runtime: string }): number {
  if (a.scenario !== b.scenario) return a.scenario < b.scenario ? -1 : 1;
  return RUNTIME_NAMES.indexOf(a.runtime as never) - RUNTIME_NAMES.indexOf(b.runtime as never);
}

/**
 * One run from its shards: refuses files from different commits or configurations, overlapping shards and
 * missing shards (the verdict would not be the unsharded one), naming the files.
 */
export function mergeResults(files: ReadonlyArray<{ file: string; results: GateResults }>): GateResults {
  if (files.length === 0) throw new MergeError('no results files given; pass the files written by `concord gate --results FILE` in each shard');
  const [first, ...rest] = files;
  for (const other of rest) {
    if (other.results.commit !== first!.results.commit) {
      throw new MergeError(`${first!.file} gated commit ${first!.results.commit ?? '(unknown)'} but ${other.file} gated ${other.results.commit ?? '(unknown)'}; merge shards of one commit`);
    }
    for (const key of Object.keys(first!.results.configuration) as Array<keyof GateResults['configuration']>) {
      if (!isDeepStrictEqual(first!.results.configuration[key], other.results.configuration[key])) {
        throw new MergeError(
          `${first!.file} and ${other.file} differ in ${key} (${JSON.stringify(first!.results.configuration[key])} vs ${JSON.stringify(other.results.configuration[key])}); run every shard with the same options`,
        );
      }
    }
  }
  const owner = new Map<string, string>();
  for (const { file, results } of files) {
    for (const pair of results.pairs) {
      const seen = owner.get(pairKey(pair));
      if (seen !== undefined) throw new MergeError(`${seen} and ${file} both ran ${pairKey(pair)}: the shards overlap; give each shard its own --shard i/n`);
      owner.set(pairKey(pair), file);
    }
  }
  const shards = files.map((f) => f.results.shard);
  if (shards.some((s) => s !== null)) {
    const count = shards.find((s) => s !== null)!.count;
    const indexes = new Map<number, string>();
    files.forEach(({ file, results }) => {
      if (results.shard === null || results.shard.count !== count) throw new MergeError(`${file} is ${results.shard ? `shard ${results.shard.index}/${results.shard.count}` : 'not a shard'}, the others are shards of ${count}; merge the shards of one split`);
      const earlier = indexes.get(results.shard.index);
      if (earlier !== undefined) throw new MergeError(`${earlier} and ${file} are both shard ${results.shard.index}/${count}`);
      indexes.set(results.shard.index, file);
    });
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !indexes.has(i));
    if (missing.length > 0) throw new MergeError(`shard ${missing.map((i) => `${i}/${count}`).join(', ')} missing: the merged verdict would not be the whole run's; pass every shard's results`);
  }

  const pairs = files.flatMap((f) => f.results.pairs).sort(pairOrder);
  const index = new Map(pairs.map((p, i) => [pairKey(p), i]));
  const rank = (path: string) => index.get(path.split('/').slice(0, 2).join('/')) ?? pairs.length;
  const unique = <T>(items: T[]) => items.filter((item, i) => items.findIndex((other) => isDeepStrictEqual(other, item)) === i);
  return {
    ...first!.results,
    shard: null,
    runId: files.map((f) => f.results.runId).sort()[0]!,
    pairs,
    obsolete: [...new Set(files.flatMap((f) => f.results.obsolete))].sort(),
    runFindings: unique(files.flatMap((f) => f.results.runFindings)),
    matrix: files.flatMap((f) => f.results.matrix).sort((a, b) => pairOrder(a, b) || (a.interpreter < b.interpreter ? -1 : a.interpreter > b.interpreter ? 1 : 0)),
    interpreters: unique(files.flatMap((f) => f.results.interpreters)),
    absent: [...new Set(files.flatMap((f) => f.results.absent))],
    proposals: files.flatMap((f) => f.results.proposals).map((p, i) => ({ p, i })).sort((a, b) => rank(a.p.path) - rank(b.p.path) || a.i - b.i).map(({ p }) => p),
  };
}
