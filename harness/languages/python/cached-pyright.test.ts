import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VerdictCache } from '../../cache/verdict-cache.js';
import { PyrightServers } from '../../interpreters/pyright-server.js';
import { checkWithPyright } from './cached-pyright.js';

let root = '';
const pyright = new PyrightServers();
afterAll(async () => {
  pyright.stop();
  await rm(root, { recursive: true, force: true });
});

describe('pyright verdicts in the cache', () => {
  it('reuses the diagnostics of the same files for the same Python version, and misses for changed files or another version', {
    timeout: 120_000,
  }, async () => {
    root = await mkdtemp(join(tmpdir(), 'concord-pyright-cache-'));
    const job = (code: string) => ({ files: new Map([['m.py', code]]), open: ['m.py'] });
    const bad = job('x: int = "text"\n');
    const first = new VerdictCache(root);
    const diagnostics = await checkWithPyright({ pyright, cache: first }, '3.9', bad);
    expect(diagnostics.get('m.py')?.some((d) => d.severity === 'error' && d.line === 0)).toBe(true);
    expect(first.stats).toMatchObject({ hits: 0, stored: 1 });

    const second = new VerdictCache(root);
    expect(await checkWithPyright({ pyright, cache: second }, '3.9', bad)).toEqual(diagnostics);
    expect(second.stats).toMatchObject({ hits: 1, misses: 0 });

    await checkWithPyright({ pyright, cache: second }, '3.11', bad);
    await checkWithPyright({ pyright, cache: second }, '3.9', job('x: int = 1\n'));
    expect(second.stats).toMatchObject({ hits: 1, misses: 2, stored: 2 });

    // An entry that names another file set is not taken for this one.
    const top = join(root, '.concord', 'cache', 'pyright');
    for (const sub of await readdir(top))
      for (const file of await readdir(join(top, sub))) await writeFile(join(top, sub, file), '{"format":1}');
    const third = new VerdictCache(root);
    expect(await checkWithPyright({ pyright, cache: third }, '3.9', bad)).toEqual(diagnostics);
    expect(third.stats.hits).toBe(0);
  });
});
