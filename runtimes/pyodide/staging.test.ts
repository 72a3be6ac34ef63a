import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { othersCanRead, removeStagedCopies, sandboxFiles, unreadableSandboxFiles } from './staging.js';
import { DEFAULT_PYODIDE_VERSION, pyodidePackageDir } from './versions.js';

// The copies these tests make go with this file, not with the worker, which outlives it and is ended without its exit
// hooks.
afterAll(removeStagedCopies);

describe('pyodide sandbox files', () => {
  it('copies the worker and the Pyodide package where every user can read them, sweeping abandoned copies', async () => {
    // A staging folder of a host that died without cleaning up: named after a pid that is gone.
    const dead = spawn(process.execPath, ['-e', '']);
    const deadPid = dead.pid!;
    await new Promise((resolve) => dead.once('exit', resolve));
    const abandoned = await mkdtemp(join(tmpdir(), `concord-pyodide-${deadPid}-`));
    await writeFile(join(abandoned, 'left.txt'), 'x');

    const files = sandboxFiles(pyodidePackageDir(DEFAULT_PYODIDE_VERSION), { forceCopy: true });
    expect(files.entry.startsWith(join(tmpdir(), `concord-pyodide-${process.pid}-`))).toBe(true);
    expect(await readdir(tmpdir())).not.toContain(basename(abandoned));
    expect(files.readable).toContain(files.packageDir);
    expect(files.readable).toContain(files.entry);
    expect(await readdir(files.packageDir)).toContain('pyodide.mjs');
    for (const path of files.readable) expect(othersCanRead(path)).toBe(true);
  });

  it('never rewrites the staged package.json that booting workers read', async () => {
    const first = sandboxFiles(pyodidePackageDir(DEFAULT_PYODIDE_VERSION), { forceCopy: true });
    const manifest = join(dirname(dirname(dirname(dirname(first.entry)))), 'package.json');
    expect(JSON.parse(await readFile(manifest, 'utf8'))).toEqual({ type: 'module' });
    // A rewrite in place truncates the file first: a worker of another version booting at that moment
    // read an empty package.json and died. Mark the file, stage again, and the mark must survive.
    await writeFile(manifest, '{"type":"module","marked":true}\n');
    sandboxFiles(pyodidePackageDir('3.12'), { forceCopy: true });
    expect(JSON.parse(await readFile(manifest, 'utf8'))).toEqual({ type: 'module', marked: true });
  });

  it('keeps the copies while a worker started from them runs, and removes them when the last one is gone', async () => {
    removeStagedCopies();
    const pyodide = pyodidePackageDir(DEFAULT_PYODIDE_VERSION);
    const first = sandboxFiles(pyodide, { forceCopy: true });
    const second = sandboxFiles(pyodide, { forceCopy: true });
    const folder = dirname(dirname(dirname(dirname(first.entry))));
    expect(second.entry).toBe(first.entry);
    first.release();
    first.release();
    // Said twice, the first worker's release still leaves the second its files.
    expect(await readdir(second.packageDir)).toContain('pyodide.mjs');
    second.release();
    expect(await readdir(tmpdir())).not.toContain(basename(folder));
    // A worker started later gets fresh copies.
    const third = sandboxFiles(pyodide, { forceCopy: true });
    expect(third.entry).not.toBe(first.entry);
    expect(await readdir(third.packageDir)).toContain('pyodide.mjs');
    third.release();
    expect(await readdir(tmpdir())).not.toContain(basename(dirname(dirname(dirname(dirname(third.entry))))));
  });

  it('keeps no copies a worker running as another user could not read', async () => {
    await withPrivatePyodide('concord-pyodide-unread-', async (pyodide, temp) => {
      removeStagedCopies();
      expect(() => sandboxFiles(pyodide, { otherUser: true })).toThrow('cannot read its files, not even the copies');
      expect(await readdir(temp)).toEqual([]);
    });
  });

  it('tells whether a worker running as another user could read its files, even from copies, without copying any', async () => {
    await withPrivatePyodide('concord-pyodide-reach-', async (pyodide, temp) => {
      expect(unreadableSandboxFiles(pyodide, { otherUser: false })).toBeUndefined();
      // Copies would land in the private temp dir: no worker could read them.
      expect(unreadableSandboxFiles(pyodide, { otherUser: true })).toContain(
        `Make the temp dir (${temp}) reachable by every user`,
      );
      // Copies would land where every user can reach them.
      await chmod(temp, 0o755);
      expect(unreadableSandboxFiles(pyodide, { otherUser: true })).toBeUndefined();
      expect(await readdir(temp)).toEqual([]);
    });
  });

  it('sees a private folder as unreadable for other users', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'concord-pyodide-private-'));
    try {
      await writeFile(join(dir, 'file.txt'), 'x', { mode: 0o644 });
      await chmod(dir, 0o700);
      expect(othersCanRead(join(dir, 'file.txt'))).toBe(false);
      await chmod(dir, 0o755);
      expect(othersCanRead(join(dir, 'file.txt'))).toBe(true);
      await chmod(join(dir, 'file.txt'), 0o600);
      expect(othersCanRead(dir)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Runs `body` with a Pyodide package no other user can reach (inside a 0700 folder) and TMPDIR pointed at a private
 * temp dir beside it; TMPDIR is put back and the folder removed after.
 */
async function withPrivatePyodide(
  prefix: string,
  body: (pyodide: string, temp: string) => Promise<void>,
): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), prefix));
  const previous = process.env.TMPDIR;
  try {
    await chmod(work, 0o755);
    await mkdir(join(work, 'private'), { mode: 0o700 });
    const pyodide = join(work, 'private', 'pyodide');
    await cp(pyodidePackageDir(DEFAULT_PYODIDE_VERSION), pyodide, { recursive: true });
    const temp = join(work, 'tmp');
    await mkdir(temp, { mode: 0o700 });
    process.env.TMPDIR = temp;
    await body(pyodide, temp);
  } finally {
    process.env.TMPDIR = previous;
    if (previous === undefined) delete process.env.TMPDIR;
    await rm(work, { recursive: true, force: true });
  }
}
