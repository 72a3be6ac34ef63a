import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot, sourceAsset } from '../../runtimes/seam/package-root.js';
import { runGate, type GateOptions } from '../gate/gate.js';
import type { Selection } from '../gate/select.js';
import type { GateResults } from './format.js';
import { mergeResults, MergeError } from './merge.js';
import { gateResults } from './write.js';
import { wellFormedShard } from './test/shard-results.js';
import { projectAt } from '../project/root.js';

const exec = promisify(execFile);
const scratch: string[] = [];
afterAll(() => Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true }))));
async function fresh(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

const SELECTION: Selection = { runtimes: ['typescript'] };

/** One in-process gate run over `snapshotsDir`, as the results file a shard would write. */
async function shardResults(snapshotsDir: string, selection: Selection): Promise<GateResults> {
  const options: GateOptions = {
    project: projectAt(packageRoot()),
    snapshotsDir,
    pendingRoot: await fresh('concord-merge-pending-'),
    reportRoot: await fresh('concord-merge-report-'),
    selection,
    update: 'none',
    ci: true,
    jobs: 2,
    color: false,
    out: () => undefined,
  };
  return gateResults(await runGate(options), { root: packageRoot(), selection });
}

const outcome = (r: GateResults) => ({
  pairs: r.pairs.map((p) => `${p.scenario}/${p.runtime}: ${p.status}`),
  changed: r.pairs.flatMap((p) => p.verdicts.filter((v) => v.status !== 'same').map((v) => `${v.path}: ${v.status}`)),
  proposals: r.proposals.map((p) => `${p.action} ${p.path}`),
  obsolete: r.obsolete,
});

describe('merging shard results', () => {
  it('gives the unsharded outcome, a tampered snapshot in one shard included', { timeout: 600_000 }, async () => {
    const snapshotsDir = await fresh('concord-merge-snapshots-');
    await cp(sourceAsset('snapshots'), snapshotsDir, { recursive: true });
    const tampered = join(snapshotsDir, 'timeout/typescript/run_code.json');
    await writeFile(tampered, (await readFile(tampered, 'utf8')).replace('program', 'programme'));
    const unsharded = await shardResults(snapshotsDir, SELECTION);
    const shards = [];
    for (const index of [1, 2, 3]) shards.push({ file: `shard-${index}.json`, results: await shardResults(snapshotsDir, { ...SELECTION, shard: { index, count: 3 } }) });
    expect(shards.map((s) => s.results.pairs.length).reduce((a, b) => a + b)).toBe(unsharded.pairs.length);
    const merged = mergeResults(shards);
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
    expect(mergeResults([{ file: 'a', results: base(1) }, { file: 'b', results: base(2) }]).pairs).toHaveLength(2);
    expect(refusal([{ file: 'a', results: base(1) }, { file: 'b', results: { ...base(2), commit: 'def' } }])).toBe('a gated commit abc but b gated def; merge shards of one commit');
    expect(refusal([{ file: 'a', results: base(1) }, { file: 'b', results: { ...base(2), configuration: { ...base(2).configuration, floor: '3.11' } } }])).toMatch(/^a and b differ in floor/);
    expect(refusal([{ file: 'a', results: base(1) }, { file: 'b', results: { ...base(2), pairs: base(1).pairs } }])).toBe('a and b both ran s1/python: the shards overlap; give each shard its own --shard i/n');
    expect(refusal([{ file: 'a', results: base(1) }])).toMatch(/^shard 2\/2 missing/);
    expect(refusal([{ file: 'a', results: base(1) }, { file: 'b', results: { ...base(2), shard: { index: 1, count: 2 } } }])).toBe('a and b are both shard 1/2');
  });

  it('three shards as separate processes merge into the unsharded verdict, summary and JUnit', { timeout: 600_000 }, async () => {
    const dir = await fresh('concord-merge-cli-');
    const cli = join(packageRoot(), 'bin/concord.mjs');
    const env = { ...process.env, CI: 'true', NO_COLOR: '1' };
    const run = (args: string[]) => exec(process.execPath, [cli, ...args], { env, maxBuffer: 64 << 20 }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    const shards = await Promise.all([1, 2, 3].map((i) => run(['gate', '--runtime', 'typescript', '--shard', `${i}/3`, '--results', join(dir, `r${i}.json`), '--junit-file', join(dir, `j${i}.xml`), '--reporter', 'junit'])));
    expect(shards.map((s) => s.code)).toEqual([0, 0, 0]);
    const merged = await run(['merge', ...[1, 2, 3].map((i) => join(dir, `r${i}.json`)), '--junit-file', join(dir, 'merged.xml')]);
    const whole = await run(['gate', '--runtime', 'typescript', '--reporter', 'junit', '--junit-file', join(dir, 'whole.xml')]);
    expect(merged.code).toBe(whole.code);
    const summary = (stdout: string) => stdout.slice(stdout.indexOf('scenario ')).split('\n').filter((l) => !/^(time|report|junit report|proposed changes):/.test(l));
    expect(summary(merged.stdout)).toEqual(summary(whole.stdout));
    const junit = async (file: string) => (await readFile(join(dir, file), 'utf8')).replace(/ time="[\d.]+"/g, '');
    expect(await junit('merged.xml')).toBe(await junit('whole.xml'));
  });
});
