import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtModule } from '../../runtimes/seam/package-root.js';
import { Host } from '../../test/host-requirements.js';
import { sweepTempFiles, TEMP_PREFIX, writeFileAtomic } from './atomic.js';

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

const FILES = 6;
const SIZE = 2 * 1024 * 1024;

describe('atomic snapshot writes', () => {
  it('leave every file whole (old or new) when the writer is killed with SIGKILL mid-update', async () => {
    dir = await mkdtemp(join(tmpdir(), 'concord-atomic-'));
    const old = (i: number) => (`old ${i}`.padEnd(15, '.') + '\n').repeat(SIZE / 16);
    for (let i = 0; i < FILES; i++) await writeFile(join(dir, `f${i}.yaml`), old(i));

    // A real child process rewrites the files over and over with large contents until it is killed.
    const script = `
      const { writeFileAtomic } = await import(${JSON.stringify(builtModule('harness/guarded/atomic.ts'))});
      const [dir, files, size] = process.argv.slice(1);
      for (let round = 0; ; round++) {
        for (let i = 0; i < Number(files); i++) {
          await writeFileAtomic(dir + '/f' + i + '.yaml', (('new ' + i + ' ' + round).padEnd(15, '.') + '\\n').repeat(Number(size) / 16));
          if (round === 0 && i === 1) process.stdout.write('writing\\n');
        }
      }`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, dir, String(FILES), String(SIZE)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    // Let it get some way into the next files, then kill it without warning.
    await new Promise((resolve) => setTimeout(resolve, 150));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    let rewritten = 0;
    for (let i = 0; i < FILES; i++) {
      const text = await readFile(join(dir, `f${i}.yaml`), 'utf8');
      expect(text.length).toBe(SIZE);
      const lines = new Set(text.split('\n').filter(Boolean));
      // Whole means one version throughout: all old lines or all lines of one new round.
      expect(lines.size).toBe(1);
      if (!text.startsWith('old')) rewritten++;
    }
    expect(rewritten).toBeGreaterThan(0);

    await sweepTempFiles(dir);
    expect((await readdir(dir)).filter((n) => n.startsWith(TEMP_PREFIX))).toEqual([]);
  });
});

(await Host.with('tmpfs')).it(
  'on a full disk leaves the old file whole and no temp file, and names the file it could not write',
  {},
  async () => {
    dir = await mkdtemp(join(tmpdir(), 'concord-full-'));
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]).status).toBe(0);
    try {
      const file = join(dir, 'transcript.yaml');
      await writeFileAtomic(file, 'old\n');
      const write = writeFileAtomic(file, 'x'.repeat(256 * 1024));
      await expect(write).rejects.toMatchObject({ code: 'ENOSPC', path: file });
      expect(await readFile(file, 'utf8')).toBe('old\n');
      expect(await readdir(dir)).toEqual(['transcript.yaml']);
    } finally {
      spawnSync('umount', [dir]);
    }
  },
);
