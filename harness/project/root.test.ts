import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RootError } from '../user-error.js';
import { parseProjectConfig } from './config.js';
import { findProjectRoot, openProject } from './root.js';
import { configRefusal } from './test/config-refusal.js';

let dir = '';
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'concord-root-')));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the project root', () => {
  it('is --root, else the nearest folder above holding concord.config.yml, else the working directory', async () => {
    const deep = join(dir, 'backend', 'src', 'plugins');
    await mkdir(deep, { recursive: true });
    expect(findProjectRoot({ cwd: deep })).toBe(deep);
    await writeFile(join(dir, 'backend', 'concord.config.yml'), '');
    expect(findProjectRoot({ cwd: deep })).toBe(join(dir, 'backend'));
    expect(findProjectRoot({ cwd: deep, root: '..' })).toBe(join(dir, 'backend', 'src'));
    expect(() => findProjectRoot({ cwd: deep, root: 'missing' })).toThrow(RootError);
  });

  it('reads concord.config.yml: defaults for floor, runtimes and timeouts; an empty file only marks the root', async () => {
    await writeFile(
      join(dir, 'concord.config.yml'),
      'floor: "3.11"\nruntimes: [typescript, python]\ntimeoutMs: 5000\n',
    );
    const project = await openProject({ cwd: dir });
    expect(project).toMatchObject({
      root: dir,
      configFile: join(dir, 'concord.config.yml'),
      scenariosDir: join(dir, 'scenarios'),
      snapshotsDir: join(dir, 'snapshots'),
      pendingRoot: join(dir, '.concord', 'pending'),
    });
    expect(project.config).toEqual({ floor: '3.11', runtimes: ['typescript', 'python'], timeoutMs: 5000 });
    expect(parseProjectConfig('c.yml', '')).toEqual({});
    // Further Pyodides for the stub matrix (installed here: concord's own checkout has them all).
    expect(parseProjectConfig('c.yml', "pyodide:\n  versions: ['3.11', '3.14']\n")).toEqual({
      pyodide: { versions: ['3.11', '3.14'] },
    });
  });

  it('refuses a bad config at its line and column', () => {
    const error = configRefusal;
    expect(error('floor: "3.9"\nruntimes: [typescript, cobol]\n')).toBe(
      '2:24 concord.config.yml.runtimes[1] must be one of typescript, python, pyodide, python-container; found "cobol"',
    );
    expect(error('timeoutMs: -1\n')).toMatch(
      /^1:12 concord\.config\.yml\.timeoutMs must be a whole number from 1 to 3600000/,
    );
    expect(error('flor: "3.9"\n')).toMatch(/^1:1 unknown key "flor"/);
    expect(error('floor: [\n')).toMatch(/^1:9 not valid YAML/);
    // An unquoted version is a number to YAML: 3.12 reads right, 3.10 as 3.1; either is told to quote it.
    expect(error('pyodide:\n  versions: [3.12]\n')).toBe(
      '2:14 concord.config.yml.pyodide.versions[0] reads as the number 3.12: YAML takes 3.12 unquoted as a number',
    );
    expect(error('floor: 3.10\n')).toBe(
      '1:8 concord.config.yml.floor reads as the number 3.1: YAML takes 3.10 unquoted as a number',
    );
    expect(error('floor: 3.1\n')).toMatch(/^1:8 concord\.config\.yml\.floor must be one of 3\.8, 3\.9, 3\.10/);
    expect(error('pyodide: {}\n')).toMatch(/^1:10 .*versions/);
    expect(error('coverage:\n  uncalled: fail\n')).toBe(
      '2:13 concord.config.yml.coverage.uncalled must be one of warn, error; found "fail"',
    );
    expect(error('coverage: error\n')).toMatch(/^1:11 concord\.config\.yml\.coverage must be a map/);
    expect(parseProjectConfig('c.yml', 'coverage: { uncalled: error }\n')).toEqual({ coverage: { uncalled: 'error' } });
  });

  it('refuses a concord.config.yml that is a pipe at once, and reads one through a link', async () => {
    const config = join(dir, 'concord.config.yml');
    execFileSync('mkfifo', [config]);
    // Opened as a file, a pipe without a writer would hold the command for good.
    await expect(openProject({ cwd: dir })).rejects.toThrow(
      /concord\.config\.yml: is not a regular file, not a concord\.config\.yml/,
    );
    await rm(config);
    await writeFile(join(dir, 'shared.yml'), 'floor: "3.11"\n');
    await symlink(join(dir, 'shared.yml'), config);
    expect((await openProject({ cwd: dir })).config).toEqual({ floor: '3.11' });
  });

  it('refuses a concord.config.yml linked to a file outside the project, printing nothing of that file', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'concord-outside-'));
    try {
      await writeFile(join(outside, 'secret.yml'), 'password: hunter2-outside\n');
      await symlink(join(outside, 'secret.yml'), join(dir, 'concord.config.yml'));
      const refusal = openProject({ cwd: dir });
      await expect(refusal).rejects.toThrow(/concord\.config\.yml: leads outside the project root/);
      await expect(refusal).rejects.toThrow(/keep a concord\.config\.yml inside the project/);
      await expect(refusal).rejects.not.toThrow(/hunter2/);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
