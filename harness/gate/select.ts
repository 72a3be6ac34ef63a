import { RUNTIME_NAMES, type RuntimeName, type Scenario } from '../scenario/types.js';

export interface Selection {
  scenarios?: readonly string[];
  runtimes?: readonly RuntimeName[];
  /** Where `runtimes` came from, for messages (default `--runtime`). */
  runtimesFrom?: string;
  /** 1-based shard index and shard count. */
  shard?: { index: number; count: number };
}

export interface Pair {
  scenario: Scenario;
  runtime: RuntimeName;
}

/** `i/n` with 1 ≤ i ≤ n; anything else is a usage error naming the accepted form. */
export function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) throw new Error(`--shard ${text}: expected i/n with 1 ≤ i ≤ n, e.g. --shard 2/4`);
  return { index, count };
}

export function parseRuntimes(names: readonly string[]): RuntimeName[] {
  for (const name of names) {
    if (!(RUNTIME_NAMES as readonly string[]).includes(name)) throw new Error(`--runtime ${name}: unknown runtime (known: ${RUNTIME_NAMES.join(', ')})`);
  }
  return names as RuntimeName[];
}

/** Stable across machines: the same folder always falls in the same shard. */
function shardOf(key: string, count: number): number {
  let hash = 2166136261;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 16777619) >>> 0;
  return (hash % count) + 1;
}

/** Whether the folder `scenario/runtime` is judged by this selection (for pairs and obsolete folders alike). */
export function inSelection(selection: Selection, scenario: string, runtime: string): boolean {
  if (selection.scenarios && !selection.scenarios.includes(scenario)) return false;
  if (selection.runtimes && !(selection.runtimes as readonly string[]).includes(runtime)) return false;
  if (selection.shard && shardOf(`${scenario}/${runtime}`, selection.shard.count) !== selection.shard.index) return false;
  return true;
}

/** Every scenario × declared runtime in the selection, in a stable order. */
export function selectPairs(scenarios: readonly Scenario[], selection: Selection): Pair[] {
  const known = new Set(scenarios.map((s) => s.name));
  for (const name of selection.scenarios ?? []) {
    if (!known.has(name)) throw new Error(`--scenario ${name}: no such scenario (known: ${[...known].sort().join(', ')})`);
  }
  const pairs: Pair[] = [];
  for (const scenario of [...scenarios].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    for (const runtime of RUNTIME_NAMES) {
      if (scenario.runtimes.includes(runtime) && inSelection(selection, scenario.name, runtime)) pairs.push({ scenario, runtime });
    }
  }
  if (pairs.length === 0) throw emptySelection(scenarios, selection);
  return pairs;
}

/** A selection that leaves nothing to run: a gate that judges nothing must not pass. */
export class SelectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectionError';
  }
}

/** Names the filter that emptied the selection, applying them in the order the user reads them. */
function emptySelection(scenarios: readonly Scenario[], selection: Selection): SelectionError {
  const chosen = selection.scenarios ? scenarios.filter((s) => selection.scenarios!.includes(s.name)) : scenarios;
  const declared = [...new Set(chosen.flatMap((s) => s.runtimes))];
  const what = selection.scenarios ? `the scenario(s) ${selection.scenarios.join(', ')}` : 'no scenario';
  if (selection.runtimes && !declared.some((r) => selection.runtimes!.includes(r))) {
    const from = selection.runtimesFrom ?? '--runtime';
    return new SelectionError(`${from} ${selection.runtimes.join(' ')}: nothing to run: ${selection.scenarios ? `${what} declare(s)` : 'no scenario declares'} ${selection.runtimes.length > 1 ? 'these runtimes' : 'this runtime'} (declared: ${declared.join(', ')}); choose a declared runtime, or add it to the scenario's runtimes:`);
  }
  if (selection.shard) {
    const before = pairsOf(chosen, { ...selection, shard: undefined }).length;
    return new SelectionError(`--shard ${selection.shard.index}/${selection.shard.count}: nothing to run: none of the ${before} scenario × runtime pair(s) falls in this shard; use fewer shards (at most ${before})`);
  }
  return new SelectionError(`nothing to run: the selection holds no scenario × runtime pair; check --scenario and --runtime`);
}

function pairsOf(scenarios: readonly Scenario[], selection: Selection): string[] {
  return scenarios.flatMap((s) => s.runtimes.filter((r) => inSelection(selection, s.name, r)).map((r) => `${s.name}/${r}`));
}
