import { describe, expect, it } from 'vitest';
import { DEFAULT_PYODIDE_VERSION } from '../../runtimes/pyodide/versions.js';
import { discoverInterpreters, findInterpreters, LocalInterpreter } from './local.js';
import { PyodideInterpreter } from './pyodide.js';

describe('local interpreter discovery', () => {
  it('finds the same interpreters probing every candidate at once as one by one, each with its build', async () => {
    const serial = findInterpreters();
    expect(await discoverInterpreters()).toEqual(serial);
    for (const found of serial) {
      expect(found.build).toMatch(new RegExp(`^${found.python.replace(/\./g, '\\.')}\\b`));
      expect(await new LocalInterpreter(found).identity()).toBe(`local ${found.executable} ${found.build}`);
    }
  });
});

describe('interpreter identity', () => {
  it('names a Pyodide release with the hash of the driver that compiles in it', async () => {
    expect(await new PyodideInterpreter(DEFAULT_PYODIDE_VERSION).identity()).toMatch(/^pyodide Pyodide [\d.]+ \(npm [^)]+\) driver [0-9a-f]{64}$/);
  });
});
