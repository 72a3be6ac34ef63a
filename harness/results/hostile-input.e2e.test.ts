import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { describeFailure } from '../cli/fail.js';
import { mergeResults, readResults } from './merge.js';
import { wellFormedShard } from './test/shard-results.js';

let root = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-hostile-input-'));
  await writeFile(join(root, 'concord.config.yml'), '{}\n');
});
afterEach(() => rm(root, { recursive: true, force: true }));

const concord = (args: string[]) =>
  spawnSync(process.execPath, [sourceAsset('bin/concord.mjs'), ...args, '--root', root], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CI: '', NO_COLOR: '1' },
    timeout: 60_000,
  });

const shard = wellFormedShard;

/** Writes shard 1 (well-formed) and `second` as given, as `r1.json` and `r2.json`. */
async function shardFiles(second: unknown): Promise<string[]> {
  await writeFile(join(root, 'r1.json'), JSON.stringify(shard(1)));
  await writeFile(join(root, 'r2.json'), typeof second === 'string' ? second : JSON.stringify(second));
  return [join(root, 'r1.json'), join(root, 'r2.json')];
}

/** `concord merge` of shard 1 (well-formed) and `second` as given; returns its exit code and output. */
async function merge(second: unknown): Promise<{ status: number | null; output: string }> {
  const result = concord(['merge', ...(await shardFiles(second))]);
  return { status: result.status, output: result.stdout + result.stderr };
}

/**
 * What `concord merge` makes of the same files, in this process: the reading and merging its command runs, and
 * the exit code and message its one failure path (`describeFailure`) gives. The command's own wiring is
 * checked through the CLI by the tests around.
 */
async function mergeInProcess(second: unknown): Promise<{ status: number; output: string }> {
  const files = await shardFiles(second);
  try {
    mergeResults(await Promise.all(files.map(async (file) => ({ file, results: await readResults(file) }))));
    return { status: 0, output: '' };
  } catch (error) {
    const { message, exit } = describeFailure(error);
    return { status: exit, output: message };
  }
}

const edited = (edit: (r: Record<string, unknown>) => void) => {
  const r = shard(2) as unknown as Record<string, unknown>;
  edit(r);
  return r;
};

describe('concord merge refuses a results file that is not one, naming the file and the JSON path', () => {
  it('merges two well-formed shards (the refusals below are the files, not the merge)', async () => {
    const { status, output } = await merge(shard(2));
    expect(output).toContain('merged 2 results file(s)');
    expect(status).toBe(0);
  });

  it('refuses a shard count of 1e9 through the command line: exit 2, not a V8 abort', async () => {
    const { status, output } = await merge(edited((r) => (r.shard = { index: 2, count: 1e9 })));
    expect(output).toContain(`${join(root, 'r2.json')}: $.shard.count is 1000000000`);
    expect(status).toBe(2);
    expect(await readdir(root)).toEqual(['concord.config.yml', 'r1.json', 'r2.json']);
  });

  it.each([
    ['a shard count of 1e9', edited((r) => (r.shard = { index: 2, count: 1e9 })), '$.shard.count is 1000000000'],
    ['a shard index above its count', edited((r) => (r.shard = { index: 3, count: 2 })), '$.shard.index is 3'],
    ['null pairs', edited((r) => (r.pairs = null)), '$.pairs is null, expected array'],
    ['a null configuration', edited((r) => (r.configuration = null)), '$.configuration is null, expected object'],
    [
      'a null field of a pair',
      edited((r) => ((r.pairs as Array<Record<string, unknown>>)[0]!.verdicts = null)),
      '$.pairs[0].verdicts is null',
    ],
    [
      'a numeric status',
      edited((r) => ((r.pairs as Array<Record<string, unknown>>)[0]!.status = 3)),
      '$.pairs[0].status is 3, expected one of "pass"',
    ],
    ['a missing field', edited((r) => delete r.proposals), '$.proposals is missing'],
    [
      'a JSON file that is no results file',
      { shard: { index: 2, count: 2 } },
      'has no `concordResults` field: it is not a results file of `concord gate --results`',
    ],
    [
      'a results file of another format',
      edited((r) => (r.concordResults = 2)),
      'results format 2, this concord reads format 1',
    ],
    [
      'a proposal writing a file that is no snapshot',
      edited(
        (r) => (r.proposals = [{ path: 'evil.sh', action: 'write', status: 'new', base: null, proposed: 'rm -rf ~' }]),
      ),
      '$.proposals[0].path is "evil.sh"',
    ],
    [
      'a proposal path with an escape character',
      edited(
        (r) =>
          (r.proposals = [
            { path: 's/python/\u001b[2Jtranscript.yaml', action: 'delete', status: 'obsolete', base: null },
          ]),
      ),
      '$.proposals[0].path is "s/python/\\u001b[2J',
    ],
    [
      'one file proposed twice (after case folding)',
      edited(
        (r) =>
          (r.proposals = ['s/python/transcript.yaml', 'S/Python/transcript.yaml'].map((path) => ({
            path,
            action: 'write',
            status: 'new',
            base: null,
            proposed: 'x',
          }))),
      ),
      '$.proposals[1].path names the file of $.proposals[0].path again',
    ],
  ])('%s', async (_name, file, expected) => {
    const { status, output } = await mergeInProcess(file);
    expect(output).toContain(`${join(root, 'r2.json')}: ${expected}`);
    expect(status).toBe(2);
    expect(await readdir(root)).toEqual(['concord.config.yml', 'r1.json', 'r2.json']);
  });

  it('a results file that does not parse is named without quoting its text', async () => {
    const { status, output } = await merge('root:x:0:0:secret-of-the-file');
    expect(status).toBe(2);
    expect(output).toContain(`${join(root, 'r2.json')}: is not valid JSON`);
    expect(output).not.toContain('secret-of-the-file');
  });

  it('refuses a results file that is a symbolic link without reading its target, and a pipe without waiting on it', async () => {
    const target = join(root, 'outside', 'token.txt');
    await mkdir(join(root, 'outside'));
    await writeFile(target, 'ghp_secretTokenOfTheTarget');
    await writeFile(join(root, 'r1.json'), JSON.stringify(shard(1)));
    await symlink(target, join(root, 'r2.json'));
    const linked = concord(['merge', join(root, 'r1.json'), join(root, 'r2.json')]);
    expect(linked.stderr).toContain(`${join(root, 'r2.json')}: is a symbolic link, not a results file`);
    expect(linked.stdout + linked.stderr).not.toContain('secretTokenOfTheTarget');
    expect(linked.status).toBe(2);

    expect(spawnSync('mkfifo', [join(root, 'pipe.json')]).status).toBe(0);
    const piped = concord(['merge', join(root, 'r1.json'), join(root, 'pipe.json')]);
    expect(piped.stderr).toContain(`${join(root, 'pipe.json')}: is not a regular file, not a results file`);
    expect(piped.status).toBe(2);
  });
});

describe('a pending manifest that is not one', () => {
  const manifest = async (changes: unknown) => {
    await mkdir(join(root, '.concord', 'pending', 'r1', 'files'), { recursive: true });
    await writeFile(join(root, '.concord', 'pending', 'r1', 'manifest.json'), JSON.stringify({ runId: 'r1', changes }));
    return join(root, '.concord', 'pending', 'r1', 'manifest.json');
  };

  it('review --list and --json with a numeric status: exit 2 naming the manifest and the JSON path, no crash', async () => {
    const file = await manifest([{ path: 'demo/python/transcript.yaml', action: 'write', status: 7, base: null }]);
    for (const args of [
      ['review', '--list'],
      ['review', '--list', '--json'],
    ]) {
      const result = concord(args);
      expect(result.stderr).toContain(
        `${file}: $.changes[0].status is 7, expected one of "changed", "new", "garbage", "obsolete"`,
      );
      expect(result.stderr).not.toMatch(/TypeError|at .*\.js:\d+/);
      expect(result.status).toBe(2);
    }
  });

  it('review refuses a manifest naming one file twice (after case folding and NFC), before deciding anything', async () => {
    const second = 'CAFÉ/python/transcript.yaml'.normalize('NFD');
    const file = await manifest(
      ['café/python/transcript.yaml', second].map((path) => ({
        path,
        action: 'delete',
        status: 'obsolete',
        base: null,
      })),
    );
    const result = concord(['review', '--reject-all']);
    expect(result.stderr).toContain(
      `${file}: $.changes[1].path ${JSON.stringify(second)} names the file of $.changes[0].path again`,
    );
    expect(result.status).toBe(2);
  });
});
