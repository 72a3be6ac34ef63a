import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSelection } from '../pairs/select.js';
import { type PlantedCopy, plantedCopy } from '../probe/test/planted-copy.js';
import { keepCache, seedCache } from '../test/warm-cache.js';
import type { GateResults } from './format.js';
import { MergeError, mergeResults, readResults } from './merge.js';
import { wellFormedShard } from './test/shard-results.js';

const exec = promisify(execFile);

interface Ran {
  code: number;
  stdout: string;
}

// One copy of this repository with one snapshot tampered (timeout × typescript), gated on TypeScript as CI does,
// each gate a process of its own: three shards side by side, then `concord merge` of their results and the
// unsharded gate. Every test below reads these runs. Not about a cold start: the copy's gates start from the
// verdicts earlier gates of the test run computed.
let copy: PlantedCopy | undefined;
let dir = '';
let shards: Ran[] = [];
let merged: Ran;
let whole: Ran;
beforeAll(async () => {
  copy = await plantedCopy([{ file: 'snapshots/timeout/typescript/run_code.json', from: 'program', to: 'programme' }]);
  await seedCache(copy.root);
  dir = await mkdtemp(join(tmpdir(), 'concord-merge-cli-'));
  const cli = join(copy.root, 'bin/concord.mjs');
  const env = { ...process.env, CI: 'true', NO_COLOR: '1' };
  const run = (args: string[]): Promise<Ran> =>
    exec(process.execPath, [cli, ...args], { cwd: copy!.root, env, maxBuffer: 64 << 20 }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
  shards = await Promise.all(
    [1, 2, 3].map((i) =>
      run([
        'gate',
        '--runtime',
        'typescript',
        '--shard',
        `${i}/3`,
        '--results',
        join(dir, `r${i}.json`),
        '--junit-file',
        join(dir, `j${i}.xml`),
        '--reporter',
        'junit',
      ]),
    ),
  );
  merged = await run([
    'merge',
    ...[1, 2, 3].map((i) => join(dir, `r${i}.json`)),
    '--junit-file',
    join(dir, 'merged.xml'),
  ]);
  whole = await run([
    'gate',
    '--runtime',
    'typescript',
    '--results',
    join(dir, 'whole.json'),
    '--reporter',
    'junit',
    '--junit-file',
    join(dir, 'whole.xml'),
  ]);
  await keepCache(copy.root);
}, 600_000);
afterAll(async () => {
  await copy?.dispose();
  await rm(dir, { recursive: true, force: true });
});

const outcome = (r: GateResults) => ({
  pairs: r.pairs.map((p) => `${p.scenario}/${p.runtime}: ${p.status}`),
  changed: r.pairs.flatMap((p) => p.verdicts.filter((v) => v.status !== 'same').map((v) => `${v.path}: ${v.status}`)),
  proposals: r.proposals.map((p) => `${p.action} ${p.path}`),
  obsolete: r.obsolete,
});

describe('merging shard results', () => {
  it('gives the unsharded outcome, a tampered snapshot in one shard included', async () => {
    const unsharded = await readResults(join(dir, 'whole.json'));
    const files = [];
    for (const index of [1, 2, 3])
      files.push({ file: `shard-${index}.json`, results: await readResults(join(dir, `r${index}.json`)) });
    expect(files.map((s) => s.results.pairs.length).reduce((a, b) => a + b)).toBe(unsharded.pairs.length);
    const merged = mergeResults(files);
    expect(outcome(merged)).toEqual(outcome(unsharded));
    expect(outcome(merged).changed).toEqual(['timeout/typescript/run_code.json: changed']);
  });

  it('refuses results of other commits, other options, overlapping and missing shards, naming the files', () => {
    const base = wellFormedShard;
    const refusal = (files: Array<{ file: string; results: GateResults }>) => {
      try {
        mergeResults(files);
      } catch (error) {
        expect(error).toBeInstanceOf(MergeError);
        return (error as Error).message;
      }
      throw new Error('expected a refusal');
    };
    expect(
      mergeResults([
        { file: 'a', results: base(1) },
        { file: 'b', results: base(2) },
      ]).pairs,
    ).toHaveLength(2);
    expect(
      refusal([
        { file: 'a', results: base(1) },
        { file: 'b', results: { ...base(2), commit: 'def' } },
      ]),
    ).toBe('a gated commit abc but b gated def; merge shards of one commit');
    expect(
      refusal([
        { file: 'a', results: base(1) },
        { file: 'b', results: { ...base(2), configuration: { ...base(2).configuration, floor: '3.11' } } },
      ]),
    ).toMatch(/^a and b differ in floor/);
    expect(
      refusal([
        { file: 'a', results: base(1) },
        { file: 'b', results: { ...base(2), pairs: base(1).pairs } },
      ]),
    ).toBe('a and b both ran s1/python: the shards overlap; give each shard its own --shard i/n');
    expect(refusal([{ file: 'a', results: base(1) }])).toMatch(/^shard 2\/2 missing/);
    expect(
      refusal([
        { file: 'a', results: base(1) },
        { file: 'b', results: { ...base(2), shard: { index: 1, count: 2 } } },
      ]),
    ).toBe('a and b are both shard 1/2');
  });

  it('three shards as separate processes merge into the unsharded verdict, summary and JUnit', async () => {
    // Each shard says its own verdict: only the one holding the tampered pair fails.
    expect(shards.map((s) => s.code)).toEqual(
      [1, 2, 3].map((index) => (inSelection({ shard: { index, count: 3 } }, 'timeout', 'typescript') ? 1 : 0)),
    );
    expect(whole.code).toBe(1);
    expect(merged.code).toBe(whole.code);
    const summary = (stdout: string) =>
      stdout
        .slice(stdout.indexOf('scenario '))
        .split('\n')
        .filter((l) => !/^(time|report|junit report|proposed changes|results):/.test(l));
    expect(summary(merged.stdout)).toEqual(summary(whole.stdout));
    const junit = async (file: string) => (await readFile(join(dir, file), 'utf8')).replace(/ time="[\d.]+"/g, '');
    expect(await junit('merged.xml')).toBe(await junit('whole.xml'));
  });
});
