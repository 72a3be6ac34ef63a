import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtModule } from '../../runtimes/seam/package-root.js';
import { loadScenarios } from '../scenario/discover.js';
import { readPending, writePending } from '../snapshot/pending.js';
import { reviewPending } from '../snapshot/review.js';
import { applyVerdict, compareFolder, snapshotFolders } from '../snapshot/store.js';
import { GuardError, GuardedFolder, relativeSegments } from './folder.js';

/** A project with a folder beside it that must never be touched: `outside/` holds a file and a folder. */
let work = '';
let root = '';
let snapshots = '';
let outside = '';

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'concord-guarded-'));
  root = join(work, 'project');
  snapshots = join(root, 'snapshots');
  outside = join(work, 'outside');
  await mkdir(join(outside, 'keep'), { recursive: true });
  await writeFile(join(outside, 'secret.txt'), 'TOP SECRET first line\n');
  await writeFile(join(outside, 'keep', 'file.txt'), 'keep me\n');
  await mkdir(snapshots, { recursive: true });
});
afterEach(() => rm(work, { recursive: true, force: true }));

const outsideIntact = async () => {
  expect((await readdir(outside)).sort()).toEqual(['keep', 'secret.txt']);
  expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET first line\n');
  expect(await readFile(join(outside, 'keep', 'file.txt'), 'utf8')).toBe('keep me\n');
};

describe('the guarded door below snapshots/ and .concord/', () => {
  it('refuses to delete through a snapshot folder that is a link to outside, naming the link', async () => {
    await symlink(outside, join(snapshots, 'demo'));
    const attempt = applyVerdict(snapshots, { path: 'demo/python', status: 'obsolete' });
    await expect(attempt).rejects.toThrow(GuardError);
    await expect(attempt).rejects.toThrow(`${join(snapshots, 'demo')}: is a symbolic link`);
    await expect(applyVerdict(snapshots, { path: 'demo', status: 'obsolete' })).rejects.toThrow('is a symbolic link');
    await expect(snapshotFolders(snapshots)).rejects.toThrow(`${join(snapshots, 'demo')}: is a symbolic link`);
    await outsideIntact();
  });

  it('refuses a link anywhere inside a folder it removes, before removing anything', async () => {
    await mkdir(join(snapshots, 'demo', 'python'), { recursive: true });
    await writeFile(join(snapshots, 'demo', 'python', 'a.yaml'), 'a\n');
    await symlink(outside, join(snapshots, 'demo', 'python', 'escape'));
    await expect(applyVerdict(snapshots, { path: 'demo', status: 'obsolete' })).rejects.toThrow(
      `${join(snapshots, 'demo', 'python', 'escape')}: is a symbolic link`,
    );
    expect(await readFile(join(snapshots, 'demo', 'python', 'a.yaml'), 'utf8')).toBe('a\n');
    await outsideIntact();
  });

  it('removes the folders a removal empties, up to but never snapshots/ itself, and keeps a folder still holding a sibling', async () => {
    await mkdir(join(snapshots, 'demo', 'python'), { recursive: true });
    await mkdir(join(snapshots, 'demo', 'typescript'), { recursive: true });
    await writeFile(join(snapshots, 'demo', 'python', 'a.yaml'), 'a\n');
    await writeFile(join(snapshots, 'demo', 'typescript', 'a.yaml'), 'a\n');
    await applyVerdict(snapshots, { path: 'demo/python', status: 'obsolete' });
    expect(await readdir(join(snapshots, 'demo'))).toEqual(['typescript']);
    await applyVerdict(snapshots, { path: 'demo/typescript/a.yaml', status: 'garbage' });
    expect(await readdir(snapshots)).toEqual([]);
    await outsideIntact();
  });

  it('never writes through a linked folder or a linked file', async () => {
    await symlink(outside, join(snapshots, 'demo'));
    await expect(
      applyVerdict(snapshots, { path: 'demo/keep/file.txt', status: 'changed', proposed: 'pwned\n' }),
    ).rejects.toThrow('is a symbolic link');
    await mkdir(join(snapshots, 'other'));
    await symlink(join(outside, 'secret.txt'), join(snapshots, 'other', 'transcript.yaml'));
    await expect(
      applyVerdict(snapshots, { path: 'other/transcript.yaml', status: 'changed', proposed: 'pwned\n' }),
    ).rejects.toThrow(`${join(snapshots, 'other', 'transcript.yaml')}: is a symbolic link`);
    await outsideIntact();
  });

  it('refuses a snapshots folder that is itself a link', async () => {
    await rm(snapshots, { recursive: true });
    await symlink(outside, snapshots);
    await expect(applyVerdict(snapshots, { path: 'keep', status: 'obsolete' })).rejects.toThrow(
      `${snapshots}: is a symbolic link`,
    );
    await expect(new GuardedFolder(snapshots, 'snapshots').write('x.txt', 'x')).rejects.toThrow('is a symbolic link');
    await outsideIntact();
  });

  it('never leaks a linked snapshot file into a diff or a message', async () => {
    await mkdir(join(snapshots, 'demo', 'python'), { recursive: true });
    await symlink(join(outside, 'secret.txt'), join(snapshots, 'demo', 'python', 'transcript.yaml'));
    const compared = compareFolder(snapshots, 'demo/python', new Map([['transcript.yaml', 'turns: []\n']]));
    await expect(compared).rejects.toThrow('is a symbolic link');
    await expect(compared).rejects.not.toThrow('SECRET');
  });

  it('names a snapshot file that is a folder', async () => {
    await mkdir(join(snapshots, 'demo', 'python', 'transcript.yaml'), { recursive: true });
    await expect(
      compareFolder(snapshots, 'demo/python', new Map([['transcript.yaml', 'turns: []\n']])),
    ).rejects.toThrow(`${join(snapshots, 'demo', 'python', 'transcript.yaml')}: is a folder, not a regular file`);
  });

  it('accepts only relative paths that stay inside', () => {
    expect(relativeSegments('demo/python/transcript.yaml', 'x')).toEqual(['demo', 'python', 'transcript.yaml']);
    for (const bad of [
      '../../x',
      'demo/../../x',
      '/etc/passwd',
      'C:/x',
      'demo\\..\\x',
      'a\0b',
      '',
      'a//b',
      './a',
      'a/',
      42,
      null,
    ]) {
      expect(() => relativeSegments(bad, 'manifest.json')).toThrow(GuardError);
    }
  });
});

describe('a hostile pending manifest', () => {
  const pendingRoot = () => join(root, '.concord', 'pending');

  for (const action of ['delete', 'write'] as const) {
    it(`is refused before anything is ${action === 'delete' ? 'deleted' : 'written'} outside snapshots/`, async () => {
      await writePending(pendingRoot(), '20260101T000000Z-aaaaaa', [
        { path: 'demo/python/a.yaml', action: 'write', status: 'new', base: null, proposed: 'a\n' },
      ]);
      const run = join(pendingRoot(), '20260101T000000Z-aaaaaa');
      // What an attacker could put in a CI artifact: a path two levels above snapshots/.
      const path = action === 'delete' ? '../../outside' : '../../outside/secret.txt';
      await writeFile(
        join(run, 'manifest.json'),
        JSON.stringify({ runId: 'x', changes: [{ path, action, status: 'changed' }] }),
      );
      await mkdir(join(run, 'outside'));
      await writeFile(join(run, 'outside', 'secret.txt'), 'pwned\n');
      const review = reviewPending({
        snapshotsDir: snapshots,
        pendingRoot: pendingRoot(),
        decide: async () => 'accept',
        color: false,
        out: () => {},
      });
      await expect(review).rejects.toThrow(`${JSON.stringify(path)} has an empty, "." or ".." segment`);
      await outsideIntact();
      expect(await readdir(work)).toEqual(['outside', 'project']);
    });
  }

  it('is refused with an absolute path, a NUL byte or an unknown action, naming the manifest', async () => {
    const run = join(pendingRoot(), 'r1');
    await mkdir(run, { recursive: true });
    for (const change of [
      { path: join(outside, 'secret.txt'), action: 'delete' },
      { path: 'a\0b', action: 'write' },
      { path: 'a', action: 'chmod' },
    ]) {
      await writeFile(join(run, 'manifest.json'), JSON.stringify({ changes: [change] }));
      await expect(readPending(pendingRoot(), 'r1')).rejects.toThrow(join(run, 'manifest.json'));
    }
    await expect(readPending(pendingRoot(), '../../outside')).rejects.toThrow(GuardError);
    await outsideIntact();
  });
});

describe('reading scenarios', () => {
  it('refuses a scenario linked to a file outside the root without printing a byte of it', async () => {
    await mkdir(join(root, 'scenarios'));
    await symlink(join(outside, 'secret.txt'), join(root, 'scenarios', 'leak.yml'));
    const loading = loadScenarios(join(root, 'scenarios'), root);
    await expect(loading).rejects.toThrow(`${join(root, 'scenarios', 'leak.yml')}: leads outside the project root`);
    await expect(loading).rejects.not.toThrow('SECRET');
  });

  it('refuses a scenarios folder linked outside the root', async () => {
    await writeFile(join(outside, 'x.yml'), 'name: x\n');
    await symlink(outside, join(root, 'scenarios'));
    await expect(loadScenarios(join(root, 'scenarios'), root)).rejects.toThrow('leads outside the project root');
  });

  it('names a scenario file that is a folder', async () => {
    await mkdir(join(root, 'scenarios', 'odd.yml'), { recursive: true });
    await expect(loadScenarios(join(root, 'scenarios'), root)).rejects.toThrow(
      `${join(root, 'scenarios', 'odd.yml')}: is a folder, not a scenario`,
    );
  });
});

describe('temp files of concurrent writers', () => {
  it('a sweep never removes another live writer’s temp file (3 processes × 150 writes, each swept first)', async () => {
    const dir = join(snapshots, 'busy');
    await mkdir(dir);
    const script = `
      const { GuardedFolder } = await import(${JSON.stringify(builtModule('harness/guarded/folder.ts'))});
      const [dir, who] = process.argv.slice(1);
      const folder = new GuardedFolder(dir, 'snapshots');
      let failed = 0;
      // Ten lanes at once, each sweeping then writing in turn, so sweeps fall between other writes' open and rename.
      await Promise.all(Array.from({ length: 10 }, async (_, lane) => {
        for (let i = 0; i < 15; i++) {
          try {
            await folder.sweep('busy');
            await folder.write('busy/' + who + '-' + lane + '.yaml', 'x'.repeat(100000) + i);
          } catch (error) {
            failed++;
            console.error(error.message);
          }
        }
      }));
      process.stdout.write(String(failed));`;
    const run = (who: string) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, snapshots, who], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d));
        child.stderr.on('data', (d: Buffer) => (err += d));
        child.once('error', reject);
        child.once('exit', () => resolve(`${out} ${err.split('\n')[0]}`.trim()));
      });
    expect(await Promise.all(['a', 'b', 'c'].map(run))).toEqual(['0', '0', '0']);
    expect((await readdir(dir)).filter((n) => n.startsWith('.')).length).toBe(0);
    expect((await readdir(dir)).length).toBe(30);
  });
});
