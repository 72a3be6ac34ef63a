import { isRuntimeName, RUNTIME_NAMES, type RuntimeName } from '../runtime-names.js';
import type { Scenario } from '../scenario/types.js';
import { UserError } from '../user-error.js';

export interface Selection {
  scenarios?: readonly string[];
  runtimes?: readonly RuntimeName[];
  /** Where `runtimes` came from, for messages (default `--runtime`). */
  runtimesFrom?: string;
  /** 1-based shard index and shard count. */
  shard?: Shard;
}

export interface Shard {
  index: number;
  count: number;
  /**
   * Milliseconds per `scenario/runtime` from an earlier run: pairs are then dealt out by time (longest first
   * to the least loaded shard) instead of by a hash of their name. Every shard computes the same split.
   */
  durations?: Readonly<Record<string, number>>;
}

export interface Pair {
  scenario: Scenario;
  runtime: RuntimeName;
}

/** The CI parallelism variables `--shard auto` reads: 1-based or 0-based index, and the total. */
const CI_SHARD_VARIABLES = [
  {
    index: 'CONCORD_SHARD_INDEX',
    total: 'CONCORD_SHARD_TOTAL',
    base: 1,
    ci: 'a GitHub Actions matrix (pass the values in)',
  },
  { index: 'CI_NODE_INDEX', total: 'CI_NODE_TOTAL', base: 1, ci: 'GitLab' },
  { index: 'BUILDKITE_PARALLEL_JOB', total: 'BUILDKITE_PARALLEL_JOB_COUNT', base: 0, ci: 'Buildkite' },
  { index: 'CIRCLE_NODE_INDEX', total: 'CIRCLE_NODE_TOTAL', base: 0, ci: 'CircleCI' },
] as const;

/** `--shard auto`: the shard the CI says this job is; without any of its variables a usage error naming them. */
export function shardFromEnvironment(env: NodeJS.ProcessEnv = process.env): { index: number; count: number } {
  for (const v of CI_SHARD_VARIABLES) {
    const index = env[v.index];
    const total = env[v.total];
    if (index === undefined || total === undefined) continue;
    const shard = `${Number(index) + 1 - v.base}/${total}`;
    if (!/^\d+$/.test(index) || !/^\d+$/.test(total))
      throw new SelectionError(
        `--shard auto: ${v.index}=${JSON.stringify(index)} and ${v.total}=${JSON.stringify(total)} (${v.ci}) are not whole numbers`,
      );
    return parseShard(shard);
  }
  throw new SelectionError(
    `--shard auto: none of ${CI_SHARD_VARIABLES.map((v) => `${v.index}/${v.total}`).join(', ')} is set; pass --shard i/n, or set CONCORD_SHARD_INDEX and CONCORD_SHARD_TOTAL from your CI's matrix`,
  );
}

/** The most shards a run may be split into (a results file claiming more is refused by `concord merge`). */
export const MAX_SHARDS = 1000;

/** `i/n` with 1 ≤ i ≤ n ≤ MAX_SHARDS; anything else is a usage error naming the accepted form. */
export function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count || count > MAX_SHARDS)
    throw new SelectionError(`--shard ${text}: expected i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, e.g. --shard 2/4`);
  return { index, count };
}

export function parseRuntimes(names: readonly string[], option = '--runtime'): RuntimeName[] {
  for (const name of names) {
    if (!isRuntimeName(name))
      throw new SelectionError(`${option} ${name}: unknown runtime (known: ${RUNTIME_NAMES.join(', ')})`);
  }
  return names as RuntimeName[];
}

/** Stable across machines: the same folder always falls in the same shard. */
function shardOf(key: string, count: number): number {
  let hash = 2166136261;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 16777619) >>> 0;
  return (hash % count) + 1;
}

/** Whether the folder `scenario/runtime` is judged by this selection (for obsolete folders: by name). */
export function inSelection(selection: Selection, scenario: string, runtime: string): boolean {
  if (selection.scenarios && !selection.scenarios.includes(scenario)) return false;
  if (selection.runtimes && !(selection.runtimes as readonly string[]).includes(runtime)) return false;
  if (selection.shard && shardOf(`${scenario}/${runtime}`, selection.shard.count) !== selection.shard.index)
    return false;
  return true;
}

/** The shard each pair falls in when dealt out by recorded time; unknown pairs count as the median. */
function balancedShards(
  keys: readonly string[],
  shard: Shard & { durations: Readonly<Record<string, number>> },
): Map<string, number> {
  const known = keys
    .map((k) => shard.durations[k])
    .filter((d): d is number => typeof d === 'number' && Number.isFinite(d))
    .sort((a, b) => a - b);
  const median = known.length > 0 ? known[Math.floor(known.length / 2)]! : 1;
  const cost = (key: string) => (typeof shard.durations[key] === 'number' ? shard.durations[key]! : median);
  const order = [...keys].sort((a, b) => cost(b) - cost(a) || (a < b ? -1 : 1));
  const load = new Array<number>(shard.count).fill(0);
  const assigned = new Map<string, number>();
  for (const key of order) {
    const lightest = load.indexOf(Math.min(...load));
    load[lightest]! += cost(key);
    assigned.set(key, lightest + 1);
  }
  return assigned;
}

/** Every scenario × declared runtime in the selection, in a stable order. */
export function selectPairs(scenarios: readonly Scenario[], selection: Selection): Pair[] {
  const known = new Set(scenarios.map((s) => s.name));
  for (const name of selection.scenarios ?? []) {
    if (!known.has(name))
      throw new SelectionError(`--scenario ${name}: no such scenario (known: ${[...known].sort().join(', ')})`);
  }
  const { shard, ...unsharded } = selection;
  const pairs: Pair[] = [];
  for (const scenario of [...scenarios].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    for (const runtime of RUNTIME_NAMES) {
      if (scenario.runtimes.includes(runtime) && inSelection(unsharded, scenario.name, runtime))
        pairs.push({ scenario, runtime });
    }
  }
  // An empty selection is an input error; an empty shard of a good selection is not (CI splits blindly).
  if (pairs.length === 0) throw emptySelection(scenarios, unsharded);
  if (!shard) return pairs;
  const key = (p: Pair) => `${p.scenario.name}/${p.runtime}`;
  if (!shard.durations) return pairs.filter((p) => shardOf(key(p), shard.count) === shard.index);
  const assigned = balancedShards(pairs.map(key), { ...shard, durations: shard.durations });
  return pairs.filter((p) => assigned.get(key(p)) === shard.index);
}

/** A selection that leaves nothing to run: a gate that judges nothing must not pass. */
export class SelectionError extends UserError {}

/** Names the filter that emptied the selection, applying them in the order the user reads them. */
function emptySelection(scenarios: readonly Scenario[], selection: Selection): SelectionError {
  const chosen = selection.scenarios ? scenarios.filter((s) => selection.scenarios!.includes(s.name)) : scenarios;
  const declared = [...new Set(chosen.flatMap((s) => s.runtimes))];
  const what = selection.scenarios ? `the scenario(s) ${selection.scenarios.join(', ')}` : 'no scenario';
  if (selection.runtimes && !declared.some((r) => selection.runtimes!.includes(r))) {
    const from = selection.runtimesFrom ?? '--runtime';
    return new SelectionError(
      `${from} ${selection.runtimes.join(' ')}: nothing to run: ${selection.scenarios ? `${what} declare(s)` : 'no scenario declares'} ${selection.runtimes.length > 1 ? 'these runtimes' : 'this runtime'} (declared: ${declared.join(', ')}); choose a declared runtime, or add it to the scenario's runtimes:`,
    );
  }
  return new SelectionError(
    `nothing to run: the selection holds no scenario × runtime pair; check --scenario and --runtime`,
  );
}
