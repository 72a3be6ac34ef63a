import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { RUNTIME_NAMES } from '../runtime-names.js';
import { RUNTIMES, runtimeTarget, unavailableRuntimes } from './runtimes.js';

describe('the runtime table', () => {
  it('names every runtime once, each with a plugin that exists', () => {
    expect(Object.keys(RUNTIMES).sort()).toEqual([...RUNTIME_NAMES].sort());
    for (const name of RUNTIME_NAMES)
      expect(existsSync(join(packageRoot(), `${RUNTIMES[name].plugin}.ts`)), name).toBe(true);
  });

  it('mounts a runtime from the pool with the scenario settings on top of its own', () => {
    expect(runtimeTarget('python-container', { timeoutMs: 5 })).toEqual({
      name: 'python-container',
      language: 'python',
      plugin: 'runtimes/cpython/plugin',
      config: { isolation: 'container', fallback: 'error', timeoutMs: 5, shared: true },
    });
  });

  it('asks only about the runtimes it is asked about', async () => {
    expect(await unavailableRuntimes(['typescript', 'python', 'pyodide'])).toEqual(new Map());
  });
});
