import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { writePending } from './pending.js';
import { listPending } from './review.js';
import { snapshotFingerprint } from './store.js';

let root = '';
afterEach(() => rm(root, { recursive: true, force: true }));

describe('review on a terminal', () => {
  it('Ctrl-C at the prompt exits 130, keeping the accepted change written and every undecided proposal pending', { timeout: 60_000 }, async (ctx) => {
    // `script` gives the review a real terminal, so it prompts and reads Ctrl-C as the terminal sends it.
    if (spawnSync('script', ['--version']).status !== 0) ctx.skip('no `script` command (util-linux) to give the review a terminal');
    root = await mkdtemp(join(tmpdir(), 'concord-review-tty-'));
    const snapshotsDir = join(root, 'snapshots');
    const pendingRoot = join(root, '.concord', 'pending');
    await mkdir(join(snapshotsDir, 'demo', 'python'), { recursive: true });
    const proposals = [];
    for (const name of ['a.yaml', 'b.yaml', 'c.yaml']) {
      await writeFile(join(snapshotsDir, 'demo', 'python', name), `${name} committed\n`);
      const path = `demo/python/${name}`;
      proposals.push({ path, action: 'write' as const, status: 'changed' as const, base: await snapshotFingerprint(snapshotsDir, path), proposed: `${name} new\n` });
    }
    await writePending(pendingRoot, 'r1', proposals);

    const command = [process.execPath, sourceAsset('bin/concord.mjs'), 'review', '--root', root].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, CI: '', NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const prompts = () => output.split('[a]ccept, [r]eject, [s]kip?').length - 1;
    const waitFor = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no prompt ${n} within 20 s: ${output}`)), 20_000);
        const check = () => {
          if (prompts() >= n) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout.on('data', check);
        check();
      });
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await waitFor(1);
    child.stdin.write('a\r');
    await waitFor(2);
    child.stdin.write('\x03');
    expect(await exit).toBe(130);
    expect(output).toContain('review interrupted: every undecided proposal stays pending');
    expect(await readFile(join(snapshotsDir, 'demo', 'python', 'a.yaml'), 'utf8')).toBe('a.yaml new\n');
    expect(await readFile(join(snapshotsDir, 'demo', 'python', 'b.yaml'), 'utf8')).toBe('b.yaml committed\n');
    expect((await listPending({ snapshotsDir, pendingRoot })).map((e) => e.path)).toEqual(['demo/python/b.yaml', 'demo/python/c.yaml']);
  });
});
