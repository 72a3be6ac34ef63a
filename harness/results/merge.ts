import { isDeepStrictEqual } from 'node:util';
import { GuardError } from '../guarded/folder.js';
import { jsonChecker, parseJsonText } from '../guarded/json-input.js';
import { readRegularFile } from '../guarded/read-regular.js';
import { RUNTIME_NAMES } from '../runtime-names.js';
import { repeatedPath } from '../snapshot/pending-schema.js';
import { UserError } from '../user-error.js';
import { type GateResults, RESULTS_VERSION } from './format.js';
import { RESULTS_SCHEMA } from './schema.js';

/** Results that cannot be merged; the message names the files and what to do. Exit 2. */
export class MergeError extends UserError {}

/** A results file above this is refused before it is read: a real one is a few MB. */
export const MAX_RESULTS_BYTES = 256 * 1024 * 1024;

const FIX =
  'pass the files written by `concord gate --results FILE`, from every shard of one run with one concord version';
let checkResults: ((data: unknown) => string | undefined) | undefined;

/**
 * Reads one results file, never through a link; anything but a results file of this version, every field
 * of the type the merge reads, is refused naming the file and the JSON path (GuardError, exit 2).
 */
export async function readResults(file: string): Promise<GateResults> {
  const parsed = parseJsonText((await readRegularFile(file, 'a results file', MAX_RESULTS_BYTES)).toString('utf8'));
  if ('problem' in parsed) throw new GuardError(file, parsed.problem, FIX);
  const version = (parsed.value as { concordResults?: unknown } | null)?.concordResults;
  if (version !== RESULTS_VERSION) {
    if (version === undefined)
      throw new GuardError(
        file,
        'has no `concordResults` field: it is not a results file of `concord gate --results`',
        FIX,
      );
    throw new GuardError(
      file,
      `results format ${JSON.stringify(version)}, this concord reads format ${RESULTS_VERSION}`,
      'run every shard and the merge with one concord version',
    );
  }
  checkResults ??= jsonChecker(RESULTS_SCHEMA);
  const problem = checkResults(parsed.value);
  if (problem !== undefined) throw new GuardError(file, `${problem}; the file was cut short or edited`, FIX);
  const results = parsed.value as GateResults;
  const repeated = repeatedPath(results.proposals.map((p) => p.path));
  if (repeated)
    throw new GuardError(
      file,
      `$.proposals[${repeated.index}].path names the file of $.proposals[${repeated.earlier}].path again`,
      FIX,
    );
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
  if (files.length === 0)
    throw new MergeError(
      'no results files given; pass the files written by `concord gate --results FILE` in each shard',
    );
  const [first] = files;
  refuseMismatchedShards(files);

  const pairs = files.flatMap((f) => f.results.pairs).sort(pairOrder);
  const index = new Map(pairs.map((p, i) => [pairKey(p), i]));
  const rank = (path: string) => index.get(path.split('/').slice(0, 2).join('/')) ?? pairs.length;
  const unique = <T>(items: T[]) =>
    items.filter((item, i) => items.findIndex((other) => isDeepStrictEqual(other, item)) === i);
  return {
    ...first!.results,
    shard: null,
    runId: files.map((f) => f.results.runId).sort()[0]!,
    pairs,
    obsolete: [...new Set(files.flatMap((f) => f.results.obsolete))].sort(),
    runFindings: unique(files.flatMap((f) => f.results.runFindings)),
    matrix: files
      .flatMap((f) => f.results.matrix)
      .sort((a, b) => pairOrder(a, b) || (a.interpreter < b.interpreter ? -1 : a.interpreter > b.interpreter ? 1 : 0)),
    interpreters: unique(files.flatMap((f) => f.results.interpreters)),
    absent: [...new Set(files.flatMap((f) => f.results.absent))],
    proposals: files
      .flatMap((f) => f.results.proposals)
      .map((p, i) => ({ p, i }))
      .sort((a, b) => rank(a.p.path) - rank(b.p.path) || a.i - b.i)
      .map(({ p }) => p),
  };
}

/** Shards of different commits or configurations, or shards that overlap: their merge would not be one run. */
function refuseMismatchedShards(files: ReadonlyArray<{ file: string; results: GateResults }>): void {
  const [first, ...rest] = files;
  for (const other of rest) {
    if (other.results.commit !== first!.results.commit) {
      throw new MergeError(
        `${first!.file} gated commit ${first!.results.commit ?? '(unknown)'} but ${other.file} gated ${other.results.commit ?? '(unknown)'}; merge shards of one commit`,
      );
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
      if (seen !== undefined)
        throw new MergeError(
          `${seen} and ${file} both ran ${pairKey(pair)}: the shards overlap; give each shard its own --shard i/n`,
        );
      owner.set(pairKey(pair), file);
    }
  }
  refuseMissingShards(files);
}

/** A split with a shard missing or given twice: the merged verdict would not be the whole run's. */
function refuseMissingShards(files: ReadonlyArray<{ file: string; results: GateResults }>): void {
  const shards = files.map((f) => f.results.shard);
  if (shards.some((s) => s !== null)) {
    const count = shards.find((s) => s !== null)!.count;
    const indexes = new Map<number, string>();
    files.forEach(({ file, results }) => {
      if (results.shard === null || results.shard.count !== count)
        throw new MergeError(
          `${file} is ${results.shard ? `shard ${results.shard.index}/${results.shard.count}` : 'not a shard'}, the others are shards of ${count}; merge the shards of one split`,
        );
      const earlier = indexes.get(results.shard.index);
      if (earlier !== undefined)
        throw new MergeError(`${earlier} and ${file} are both shard ${results.shard.index}/${count}`);
      indexes.set(results.shard.index, file);
    });
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !indexes.has(i));
    const named =
      missing
        .slice(0, 10)
        .map((i) => `${i}/${count}`)
        .join(', ') + (missing.length > 10 ? ` and ${missing.length - 10} more` : '');
    if (missing.length > 0)
      throw new MergeError(
        `shard ${named} missing: the merged verdict would not be the whole run's; pass every shard's results`,
      );
  }
}
