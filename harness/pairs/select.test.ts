import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types.js';
import { selectPairs, shardFromEnvironment } from './select.js';

const scenario = (name: string): Scenario => ({
  name,
  description: '',
  file: `/p/scenarios/${name}.yml`,
  runtimes: ['typescript', 'python'],
  runtimeConfig: {},
  composition: [],
  script: [],
  expect: {},
});
const SCENARIOS = ['a', 'b', 'c', 'd', 'e'].map(scenario);
const keys = (pairs: ReturnType<typeof selectPairs>) => pairs.map((p) => `${p.scenario.name}/${p.runtime}`);

describe('shards', () => {
  it('split the selection into disjoint slices that cover it, by name or by recorded time', () => {
    const all = keys(selectPairs(SCENARIOS, {}));
    const durations = Object.fromEntries(all.map((key, i) => [key, key === 'a/python' ? 10_000 : 100 + i]));
    for (const extra of [{}, { durations }]) {
      const slices = [1, 2, 3].map((index) => keys(selectPairs(SCENARIOS, { shard: { index, count: 3, ...extra } })));
      expect(slices.flat().sort()).toEqual([...all].sort());
      expect(new Set(slices.flat()).size).toBe(all.length);
    }
  });

  it('by time, put the longest pair alone in its shard and keep the others balanced', () => {
    const all = keys(selectPairs(SCENARIOS, {}));
    const durations = Object.fromEntries(all.map((key) => [key, key === 'a/python' ? 10_000 : 100]));
    const slices = [1, 2, 3].map((index) => keys(selectPairs(SCENARIOS, { shard: { index, count: 3, durations } })));
    expect(slices.find((s) => s.includes('a/python'))).toEqual(['a/python']);
    expect(
      slices
        .filter((s) => !s.includes('a/python'))
        .map((s) => s.length)
        .sort(),
    ).toEqual([4, 5]);
  });

  it('auto reads the CI parallelism variables, 0-based where the CI counts from 0', () => {
    expect(shardFromEnvironment({ CI_NODE_INDEX: '2', CI_NODE_TOTAL: '4' })).toEqual({ index: 2, count: 4 });
    expect(shardFromEnvironment({ BUILDKITE_PARALLEL_JOB: '0', BUILDKITE_PARALLEL_JOB_COUNT: '3' })).toEqual({
      index: 1,
      count: 3,
    });
    expect(shardFromEnvironment({ CIRCLE_NODE_INDEX: '2', CIRCLE_NODE_TOTAL: '3' })).toEqual({ index: 3, count: 3 });
    expect(shardFromEnvironment({ CONCORD_SHARD_INDEX: '1', CONCORD_SHARD_TOTAL: '2' })).toEqual({
      index: 1,
      count: 2,
    });
    expect(() => shardFromEnvironment({})).toThrow(
      /none of CONCORD_SHARD_INDEX\/CONCORD_SHARD_TOTAL, CI_NODE_INDEX\/CI_NODE_TOTAL/,
    );
    expect(() => shardFromEnvironment({ CI_NODE_INDEX: 'x', CI_NODE_TOTAL: '2' })).toThrow(/not whole numbers/);
    expect(() => shardFromEnvironment({ CIRCLE_NODE_INDEX: '3', CIRCLE_NODE_TOTAL: '3' })).toThrow(
      /expected i\/n with 1 ≤ i ≤ n/,
    );
  });
});
