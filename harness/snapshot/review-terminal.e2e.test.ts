import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { Host } from '../../test/host-requirements.js';
import { installedApart } from '../../test/packed.js';
import { writePending } from './pending.js';
import { listPending } from './review.js';
import { SHORT_DIFF_LINES } from './review-keys.js';
import { snapshotFingerprint } from './store.js';

let root = '';
afterEach(() => rm(root, { recursive: true, force: true }));

const PROMPT = '[a]ccept [r]eject [s]kip, A/R/S for all that remain, [d]iff, [q]uit, [?] help';

/** A project whose snapshots demo/python/<name> each have a pending change of their own. */
async function project(changes: Record<string, [committed: string, proposed: string]>) {
  root = await mkdtemp(join(tmpdir(), 'concord-review-tty-'));
  const snapshotsDir = join(root, 'snapshots');
  const pendingRoot = join(root, '.concord', 'pending');
  await mkdir(join(snapshotsDir, 'demo', 'python'), { recursive: true });
  const proposals = [];
  for (const [name, [committed, proposed]] of Object.entries(changes)) {
    await writeFile(join(snapshotsDir, 'demo', 'python', name), committed);
    const path = `demo/python/${name}`;
    proposals.push({
      path,
      action: 'write' as const,
      status: 'changed' as const,
      base: await snapshotFingerprint(snapshotsDir, path),
      proposed,
    });
  }
  await writePending(pendingRoot, 'r1', proposals);
  const file = (name: string) => readFile(join(snapshotsDir, 'demo', 'python', name), 'utf8');
  const pending = async () => (await listPending({ snapshotsDir, pendingRoot })).map((e) => e.path);
  return { file, pending };
}

/**
 * `concord review` on a real terminal (`script` gives it one): keys are sent as typed, with no Enter. `bin` is this
 * checkout's CLI unless a test names an installed one.
 */
function review(bin = sourceAsset('bin/concord.mjs')) {
  const command = [process.execPath, bin, 'review', '--root', root].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...process.env, CI: '', NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const count = (text: string) => output.split(text).length - 1;
  /** Waits until `text` has been printed `n` times. */
  const waitFor = (text: string, n = 1) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${JSON.stringify(text)} not printed ${n} time(s) within 20 s: ${output}`)),
        20_000,
      );
      const check = () => {
        if (count(text) >= n) {
          clearTimeout(timer);
          child.stdout.off('data', check);
          resolve();
        }
      };
      child.stdout.on('data', check);
      check();
    });
  const press = (key: string) => child.stdin.write(key);
  return { exit, waitFor, press, count, output: () => output };
}

(await Host.with('script')).describe('review on a terminal', () => {
  it('accepts nothing that changed on disk while the reviewer read it: the change stays pending (installed)', {
    timeout: 120_000,
  }, async () => {
    const install = await installedApart('review-tty');
    try {
      const { file, pending } = await project({ 'a.yaml': ['a old\n', 'a new\n'] });
      const session = review(install.bin);
      await session.waitFor(PROMPT);
      // A gate -u rewrites the snapshot while its diff is on the screen.
      await writeFile(join(root, 'snapshots', 'demo', 'python', 'a.yaml'), 'a rewritten\n');
      session.press('a');
      expect(await session.exit, session.output()).toBe(1);
      expect(session.output()).toContain('stale');
      expect(await file('a.yaml')).toBe('a rewritten\n');
      expect(await pending()).toEqual(['demo/python/a.yaml']);
    } finally {
      await rm(install.dir, { recursive: true, force: true });
    }
  });

  it('takes single keys: ? shows the keys, an unknown key says so, a accepts, r rejects, q quits leaving the rest pending', {
    timeout: 60_000,
  }, async () => {
    const { file, pending } = await project({
      'a.yaml': ['a old\n', 'a new\n'],
      'b.yaml': ['b old\n', 'b new\n'],
      'c.yaml': ['c old\n', 'c new\n'],
      'd.yaml': ['d old\n', 'd new\n'],
    });
    const session = review();
    await session.waitFor(PROMPT);
    session.press('?');
    await session.waitFor('q  quit: every change not yet decided stays pending');
    session.press('x');
    await session.waitFor('"x" is no key of review; press ? for the keys');
    session.press('a');
    await session.waitFor('accepted: snapshots/demo/python/a.yaml');
    await session.waitFor(PROMPT, 4);
    session.press('r');
    await session.waitFor('rejected: snapshots/demo/python/b.yaml');
    await session.waitFor(PROMPT, 5);
    session.press('q');
    expect(await session.exit, session.output()).toBe(0);
    expect(session.output()).toContain('review: 1 accepted, 1 rejected, 0 skipped, 2 left pending (quit)');
    expect(await file('a.yaml')).toBe('a new\n');
    expect(await file('b.yaml')).toBe('b old\n');
    expect(await pending()).toEqual(['demo/python/c.yaml', 'demo/python/d.yaml']);
  });

  it('A accepts the change shown and every one after it without asking again; d shows the whole of a long diff', {
    timeout: 60_000,
  }, async () => {
    const long = Array.from({ length: 100 }, (_, i) => `line ${i + 1}\n`).join('');
    const { file, pending } = await project({
      'a.yaml': ['a old\n', long],
      'b.yaml': ['b old\n', 'b new\n'],
      'c.yaml': ['c old\n', 'c new\n'],
    });
    const session = review();
    await session.waitFor(PROMPT);
    expect(session.output()).toContain('more line(s): press d to see the whole diff');
    expect(session.output()).not.toContain('line 100');
    session.press('d');
    await session.waitFor('line 100');
    session.press('A');
    expect(await session.exit, session.output()).toBe(0);
    expect(session.count(PROMPT)).toBe(2);
    expect(session.output()).toContain('review: 3 accepted, 0 rejected, 0 skipped');
    expect(await file('a.yaml')).toBe(long);
    expect(await file('c.yaml')).toBe('c new\n');
    expect(await pending()).toEqual([]);
    expect(SHORT_DIFF_LINES).toBeLessThan(100);
  });

  it('Ctrl-C exits 130, keeping the accepted change written and every undecided proposal pending', {
    timeout: 60_000,
  }, async () => {
    const { file, pending } = await project({
      'a.yaml': ['a old\n', 'a new\n'],
      'b.yaml': ['b old\n', 'b new\n'],
      'c.yaml': ['c old\n', 'c new\n'],
    });
    const session = review();
    await session.waitFor(PROMPT);
    session.press('a');
    await session.waitFor(PROMPT, 2);
    session.press('\x03');
    expect(await session.exit).toBe(130);
    expect(session.output()).toContain('review interrupted: every undecided proposal stays pending');
    expect(await file('a.yaml')).toBe('a new\n');
    expect(await file('b.yaml')).toBe('b old\n');
    expect(await pending()).toEqual(['demo/python/b.yaml', 'demo/python/c.yaml']);
  });
});
