import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { processContainment, processInterpreterUnavailable, resolveInterpreter } from './process-launcher.js';

/** A CPython every account may run (outside any home directory). */
const SYSTEM_PYTHON = ['/usr/bin/python3', '/usr/local/bin/python3'].find((file) => existsSync(file));

let dir = '';
const savedPath = process.env.PATH;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-resolve-'));
});
afterEach(async () => {
  process.env.PATH = savedPath;
  await rm(dir, { recursive: true, force: true });
});

(await Host.with('root')).describe('the interpreter behind `python3` for runs with uids of their own', () => {
  it.skipIf(SYSTEM_PYTHON === undefined)(
    'skips a shim the run user cannot reach without running it, and runs it for the host user',
    async () => {
      await chmod(dir, 0o755);
      // A private home holding a shim that notes each run and hands over to the system's CPython, and a
      // public folder later on PATH with that CPython itself.
      const home = join(dir, 'home');
      const shims = join(home, 'shims');
      await mkdir(shims, { recursive: true });
      await chmod(home, 0o700);
      const ran = join(dir, 'ran');
      await writeFile(join(shims, 'python3'), `#!/bin/sh\necho run >> '${ran}'\nexec '${SYSTEM_PYTHON}' "$@"\n`);
      await chmod(join(shims, 'python3'), 0o755);
      process.env.PATH = [shims, '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter);
      const runs = async () => (await readFile(ran, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

      const first = processContainment().runUids!.first;
      expect(await resolveInterpreter('python3', first)).not.toContain(dir);
      expect(await runs()).toBe(0);
      // The host's own account reaches the shim: it runs, and names the interpreter behind it.
      expect(await resolveInterpreter('python3', undefined)).toBe(SYSTEM_PYTHON);
      expect(await runs()).toBe(1);

      process.env.PATH = shims;
      await expect(resolveInterpreter('python3', first)).rejects.toThrow(
        `${join(shims, 'python3')}: not reachable for uid ${first}`,
      );
      expect(await runs()).toBe(1);
    },
  );
});

describe('a machine with no python3 on PATH', () => {
  it('makes the python runtime unavailable, in one line naming the PATH searched and the fix', async () => {
    process.env.PATH = dir;
    expect(processInterpreterUnavailable()).toBe(
      `no "python3" on PATH (${dir}): install CPython 3.9 or later, or put it on PATH`,
    );
    await expect(resolveInterpreter('python3', undefined)).rejects.toThrow(
      `no "python3" on PATH (${dir}): install CPython 3.9 or later, or put it on PATH`,
    );
    // One there, executable: the runtime may run (whether it does is resolveInterpreter's to say).
    await writeFile(join(dir, 'python3'), '#!/bin/sh\n');
    await chmod(join(dir, 'python3'), 0o755);
    expect(processInterpreterUnavailable()).toBeUndefined();
  });
});
