import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { type TestEntry, tgz } from './test/tgz.js';

let root = '';
let outside = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-import-root-'));
  outside = await mkdtemp(join(tmpdir(), 'concord-import-artifact-'));
  await writeFile(join(root, 'concord.config.yml'), '{}\n');
});
afterEach(() => Promise.all([root, outside].map((dir) => rm(dir, { recursive: true, force: true }))));

const RUN = '20260101T000000Z-abcdef';
const SDK = 'demo/python/tools-sdk.py';
const manifest = (changes: unknown[], runId = RUN) => JSON.stringify({ runId, changes });
const write = (path: string) => ({ path, action: 'write', status: 'new', base: null });
const pendingRoot = () => join(root, '.concord', 'pending');

/** concord with only node on PATH: no external `tar` to fall back on. */
const concord = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [sourceAsset('bin/concord.mjs'), ...args, '--root', root], {
    encoding: 'utf8',
    env: { ...process.env, PATH: dirname(process.execPath), CI: '', NO_COLOR: '1', ...env },
    timeout: 60_000,
  });

async function archive(entries: readonly TestEntry[]): Promise<string> {
  const file = join(outside, `artifact-${randomBytes(3).toString('hex')}.tgz`);
  await writeFile(file, await tgz(entries));
  return file;
}

/** A folder artifact with one run whose manifest lists `changes`; `files` are its proposed files. */
async function folder(changes: unknown[], files: Record<string, string> = {}): Promise<string> {
  const run = join(outside, 'concord-pending', RUN);
  await mkdir(join(run, 'files'), { recursive: true });
  await writeFile(join(run, 'manifest.json'), manifest(changes));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(run, 'files', path)), { recursive: true });
    await writeFile(join(run, 'files', path), text);
  }
  return join(outside, 'concord-pending');
}

/** The refusal: exit 2, the expected words, no raw control character in what is printed, nothing pending. */
function refused(result: ReturnType<typeof concord>, expected: string): void {
  expect(result.stderr).toContain(expected);
  expect(result.stderr.replace(/\n {2}hint:/g, '').trimEnd()).not.toMatch(
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]|\n(?!$)/,
  );
  expect(result.status).toBe(2);
  expect(existsSync(pendingRoot()) ? readdirSync(pendingRoot()) : []).toEqual([]);
}

describe('review --from takes an artifact apart in process, and refuses a hostile one naming the entry', () => {
  it('reads a .tgz of a pending folder, or of one run, with no tar on PATH', async () => {
    const whole = await archive([
      { name: './', type: 'directory' },
      { name: `./${RUN}/manifest.json`, text: manifest([write(SDK)]) },
      { name: `./${RUN}/files/${SDK}`, text: 'class Tools: ...\n' },
    ]);
    const listed = concord(['review', '--from', whole, '--list']);
    expect(listed.stdout).toContain(`took 1 pending run(s) from ${whole}: ${RUN}`);
    expect(listed.stdout).toContain(`snapshots/${SDK}`);
    expect(listed.status).toBe(0);
    expect(await readFile(join(pendingRoot(), RUN, 'files', SDK), 'utf8')).toBe('class Tools: ...\n');
    await rm(pendingRoot(), { recursive: true });

    const one = await archive([
      { name: 'manifest.json', text: manifest([write(SDK)], '20260102T000000Z-123456') },
      { name: `files/${SDK}`, text: 'x\n' },
    ]);
    expect(concord(['review', '--from', one, '--list']).stdout).toContain('took 1 pending run(s)');
    expect(readdirSync(pendingRoot())).toEqual(['20260102T000000Z-123456']);
  });

  it('accepts only snapshot files of known kinds: snapshots/evil.sh is refused in a manifest and in an archive', async () => {
    refused(
      concord(['review', '--from', await folder([write('evil.sh')], { 'evil.sh': 'rm -rf ~' }), '--accept-all']),
      'manifest.json: $.changes[0].path is "evil.sh", expected a snapshot file <scenario>/<runtime>/<file>',
    );
    refused(
      concord([
        'review',
        '--from',
        await folder([write('demo/python/evil.sh')], { 'demo/python/evil.sh': 'x' }),
        '--accept-all',
      ]),
      '$.changes[0].path is "demo/python/evil.sh"',
    );
    const nested = await archive([
      { name: `${RUN}/manifest.json`, text: manifest([]) },
      { name: `${RUN}/files/demo/python/evil.sh`, text: 'x' },
    ]);
    refused(
      concord(['review', '--from', nested, '--accept-all']),
      `${nested}: entry ${RUN}/files/demo/python/evil.sh: is not a snapshot file`,
    );
    const top = await archive([
      { name: `${RUN}/manifest.json`, text: manifest([]) },
      { name: `${RUN}/evil.sh`, text: 'x' },
    ]);
    refused(
      concord(['review', '--from', top, '--accept-all']),
      `${top}: entry ${RUN}/evil.sh: is not a file of a pending artifact`,
    );
  });

  it('refuses control characters in manifest paths and entry names, printing them escaped', async () => {
    refused(
      concord(['review', '--from', await folder([write('demo/python/\u001b]0;owned\u0007tools-sdk.py')]), '--list']),
      '$.changes[0].path is "demo/python/\\u001b]0;owned\\u0007tools-sdk.py"',
    );
    const named = await archive([
      { name: `${RUN}/manifest.json`, text: manifest([]) },
      { name: `${RUN}/files/demo/python/a\nb`, text: 'x' },
    ]);
    refused(
      concord(['review', '--from', named, '--list']),
      `${named}: entry ${RUN}/files/demo/python/a\\u000ab: has a control character in its name`,
    );
  });

  it('refuses a file named twice, in an archive (case folding, NFC) and in a manifest', async () => {
    const cased = await archive([
      { name: `${RUN}/manifest.json`, text: manifest([write(SDK)]) },
      { name: `${RUN}/files/${SDK}`, text: 'a' },
      { name: `${RUN}/files/${SDK.toUpperCase()}`, text: 'b' },
    ]);
    refused(
      concord(['review', '--from', cased, '--list']),
      `entry ${RUN}/files/${SDK.toUpperCase()}: names the file of entry ${RUN}/files/${SDK} again`,
    );
    const twice = await folder([write(SDK), { ...write(SDK.normalize('NFD')), action: 'delete', status: 'obsolete' }], {
      [SDK]: 'a',
    });
    refused(
      concord(['review', '--from', twice, '--list']),
      `$.changes[1].path "${SDK}" names the file of $.changes[0].path again`,
    );
  });

  it('refuses an artifact reusing a run id already pending here, leaving the local proposals as they are', async () => {
    const artifact = await folder([write(SDK)], { [SDK]: 'from CI\n' });
    expect(concord(['review', '--from', artifact, '--list']).status).toBe(0);
    const local = readFileSync(join(pendingRoot(), RUN, 'manifest.json'), 'utf8');
    await writeFile(join(artifact, RUN, 'manifest.json'), manifest([write('other/python/tools-sdk.py')]));
    await mkdir(join(artifact, RUN, 'files', 'other', 'python'), { recursive: true });
    await writeFile(join(artifact, RUN, 'files', 'other', 'python', 'tools-sdk.py'), 'y');
    const again = concord(['review', '--from', artifact, '--list']);
    expect(again.stderr).toContain(
      `${join(artifact, RUN)}: is run ${RUN}, which is already pending in ${pendingRoot()}`,
    );
    expect(again.status).toBe(2);
    expect(readFileSync(join(pendingRoot(), RUN, 'manifest.json'), 'utf8')).toBe(local);
    expect(await readdir(join(pendingRoot(), RUN, 'files', 'demo', 'python'))).toEqual(['tools-sdk.py']);
    expect(existsSync(join(pendingRoot(), RUN, 'files', 'other'))).toBe(false);
  });

  it('SIGTERM in the middle of reading a large .tgz leaves no temp folder, no process and no pending run behind', {
    timeout: 120_000,
  }, async () => {
    // 64 MB that does not compress, in files under the per-file cap: reading takes long enough to interrupt.
    const files = Array.from({ length: 8 }, (_, i) => ({
      name: `${RUN}/files/s${i}/python/transcript.yaml`,
      text: randomBytes(6 << 20).toString('base64'),
    }));
    const big = await archive([
      { name: `${RUN}/manifest.json`, text: manifest(files.map((f) => write(f.name.slice(RUN.length + 7)))) },
      ...files,
    ]);
    const size = readFileSync(big).length;
    const temp = await mkdtemp(join(tmpdir(), 'concord-import-tmp-'));
    try {
      const child = spawn(
        process.execPath,
        [sourceAsset('bin/concord.mjs'), 'review', '--from', big, '--list', '--root', root],
        { env: { ...process.env, TMPDIR: temp, CI: '' }, stdio: 'pipe' },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Wait until the archive is open and partly read, then interrupt.
      const position = (): number | undefined => {
        for (const fd of readdirSync(`/proc/${child.pid}/fd`)) {
          try {
            if (readlinkSync(`/proc/${child.pid}/fd/${fd}`) === big)
              return Number(/pos:\s*(\d+)/.exec(readFileSync(`/proc/${child.pid}/fdinfo/${fd}`, 'utf8'))![1]);
          } catch {
            // The descriptor closed while it was looked at.
          }
        }
        return undefined;
      };
      let at: number | undefined;
      for (let i = 0; i < 20_000 && !((at = position()) !== undefined && at > 0); i++)
        await new Promise((resolve) => setTimeout(resolve, 1));
      child.kill('SIGTERM');
      expect(at).toBeGreaterThan(0);
      expect(at).toBeLessThan(size);
      expect(await exited).toBe(143);
      expect(stderr).toContain('SIGTERM');
      expect(readdirSync(temp)).toEqual([]);
      expect(existsSync(pendingRoot()) ? readdirSync(pendingRoot()) : []).toEqual([]);
      const readers = readdirSync('/proc').filter(
        (pid) =>
          /^\d+$/.test(pid) &&
          (() => {
            try {
              return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(big);
            } catch {
              return false;
            }
          })(),
      );
      expect(readers).toEqual([]);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  });
});
