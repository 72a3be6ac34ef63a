import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sourceAsset } from '../../runtimes/seam/package-root.js';

let project = '';
let outside = '';
let scratch = '';
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'concord-init-links-'));
  project = join(scratch, 'project');
  outside = join(scratch, 'outside');
  await mkdir(join(project, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(project, 'src', 'inventory.ts'), 'export default { name: "inventory", apply() {} };\n');
  await writeFile(join(outside, 'kept.txt'), 'not yours\n');
});
afterEach(() => rm(scratch, { recursive: true, force: true }));

const init = (...args: string[]) =>
  spawnSync(process.execPath, [sourceAsset('bin/concord.mjs'), 'init', '--root', project, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, CI: '' },
  });

/** Every name below a folder, links not followed. */
const names = async (dir: string) => (await readdir(dir, { recursive: true })).sort();

describe('concord init never follows a link or opens a non-regular file', () => {
  it.each([
    [
      '.gitignore',
      'a link to a file outside',
      () => symlink(join(outside, 'kept.txt'), join(project, '.gitignore')),
      [] as string[],
      'is a symbolic link',
    ],
    [
      'scenarios',
      'a link to a folder outside',
      () => symlink(outside, join(project, 'scenarios')),
      ['--plugin', './src/inventory.ts'],
      'is a symbolic link',
    ],
    [
      '.github',
      'a link to a folder outside',
      () => symlink(outside, join(project, '.github')),
      ['--ci', 'github'],
      'is a symbolic link',
    ],
    [
      '.github/workflows',
      'a link below a real folder',
      async () => {
        await mkdir(join(project, '.github'));
        await symlink(outside, join(project, '.github', 'workflows'));
      },
      ['--ci', 'github'],
      'is a symbolic link',
    ],
    [
      'concord.config.yml',
      'a dangling link',
      () => symlink(join(outside, 'missing.yml'), join(project, 'concord.config.yml')),
      [] as string[],
      'is a symbolic link',
    ],
    [
      '.gitignore',
      'a FIFO (init must not block reading it)',
      async () => {
        expect(spawnSync('mkfifo', [join(project, '.gitignore')]).status).toBe(0);
      },
      [] as string[],
      'is a pipe',
    ],
    [
      'scenarios/old.yml',
      'a FIFO among the scenarios init reads',
      async () => {
        await mkdir(join(project, 'scenarios'));
        expect(spawnSync('mkfifo', [join(project, 'scenarios', 'old.yml')]).status).toBe(0);
      },
      ['--plugin', './src/inventory.ts'],
      'is a pipe',
    ],
  ])('%s as %s: exit 2 naming it, nothing written', async (path, _what, make, args, problem) => {
    await make();
    const before = await names(project);
    const result = init(...args);
    expect(result.error).toBeUndefined();
    expect(result.stderr).toContain(`concord init: ${join(project, path)}: ${problem}`);
    expect(result.status).toBe(2);
    expect(await names(project)).toEqual(before);
    expect(await names(outside)).toEqual(['kept.txt']);
    expect(await readFile(join(outside, 'kept.txt'), 'utf8')).toBe('not yours\n');
  });

  it('still writes a fresh project, and keeps real files as they are', async () => {
    const result = init('--plugin', './src/inventory.ts', '--ci', 'github');
    expect(result.status).toBe(0);
    expect(await names(project)).toEqual([
      '.github',
      '.github/workflows',
      '.github/workflows/concord.yml',
      '.gitignore',
      'concord.config.yml',
      'scenarios',
      'scenarios/inventory.yml',
      'src',
      'src/inventory.ts',
    ]);
  });
});
