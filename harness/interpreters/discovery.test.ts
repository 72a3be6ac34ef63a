import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PYODIDE_VERSION } from '../../runtimes/pyodide/versions.js';
import { discoverInterpreters, findInterpreters, LocalInterpreter } from './local.js';
import { PyodideInterpreter } from './pyodide.js';

const serial = findInterpreters();

describe('local interpreter discovery', () => {
  it('finds the same interpreters probing every candidate at once as one by one, each with its build', async () => {
    expect(await discoverInterpreters()).toEqual(serial);
    for (const found of serial) {
      expect(found.build).toMatch(new RegExp(`^${found.python.replace(/\./g, '\\.')}\\b`));
      const local = new LocalInterpreter(found);
      expect(await local.identity()).toBe(`local ${found.python} ${found.build} ${found.executable}`);
      await local.dispose();
    }
  });

  describe.skipIf(serial.length === 0)('without PYENV_ROOT', () => {
    const saved = { PATH: process.env.PATH, PYENV_ROOT: process.env.PYENV_ROOT, HOME: process.env.HOME };
    let dir = '';
    afterEach(async () => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await rm(dir, { recursive: true, force: true });
    });

    const script = async (file: string, body: string) => {
      await writeFile(file, `#!/bin/sh\n${body}\n`);
      await chmod(file, 0o755);
    };

    it("finds pyenv's versions in ~/.pyenv without asking `pyenv root`, and asks it where that holds none", async () => {
      dir = await mkdtemp(join(tmpdir(), 'concord-discovery-'));
      const real = serial[0]!;
      const asked = join(dir, 'asked');
      const bin = join(dir, 'bin');
      await mkdir(bin);
      // A pyenv on PATH that notes each question and answers with another root.
      await script(join(bin, 'pyenv'), `echo root >> '${asked}'\necho '${join(dir, 'elsewhere')}'`);
      const version = (root: string) => join(root, 'versions', `${real.python}`, 'bin', `python${real.version}`);
      for (const root of [join(dir, 'home', '.pyenv'), join(dir, 'elsewhere')]) {
        await mkdir(join(root, 'versions', real.python, 'bin'), { recursive: true });
        await script(version(root), `exec '${real.executable}' "$@"`);
      }
      process.env.PATH = bin;
      delete process.env.PYENV_ROOT;
      process.env.HOME = join(dir, 'home');
      const timesAsked = async () => (await readFile(asked, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

      expect(await discoverInterpreters()).toEqual([{ ...real, executable: version(join(dir, 'home', '.pyenv')) }]);
      expect(await timesAsked()).toBe(0);
      await rm(join(dir, 'home', '.pyenv'), { recursive: true });
      expect(await discoverInterpreters()).toEqual([{ ...real, executable: version(join(dir, 'elsewhere')) }]);
      expect(await timesAsked()).toBe(1);
    });
  });
});

describe('interpreter identity', () => {
  it('is what a local interpreter says of itself, not where its path led when it was found', async () => {
    const [older, newer] = [serial[0], serial.at(-1)];
    if (older === undefined || newer === undefined || older.python === newer.python) return;
    const dir = await mkdtemp(join(tmpdir(), 'concord-identity-'));
    try {
      // A wrapper on PATH, found as the newer interpreter, then pointed at the older one for the next run.
      const wrapper = join(dir, 'python3');
      const pointAt = async (to: string) => {
        await writeFile(wrapper, `#!/bin/sh\nexec '${to}' "$@"\n`);
        await chmod(wrapper, 0o755);
      };
      await pointAt(newer.executable);
      const before = new LocalInterpreter({ ...newer, executable: wrapper });
      const first = await before.identity();
      await before.dispose();
      await pointAt(older.executable);
      const after = new LocalInterpreter({ ...newer, executable: wrapper });
      const second = await after.identity();
      await after.dispose();
      expect(first).toContain(`local ${newer.python} `);
      expect(second).toContain(`local ${older.python} `);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names a Pyodide release with the hash of the driver that compiles in it', async () => {
    expect(await new PyodideInterpreter(DEFAULT_PYODIDE_VERSION).identity()).toMatch(
      /^pyodide Pyodide [\d.]+ \(npm [^)]+\) driver [0-9a-f]{64}$/,
    );
  });
});
