import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { disposeSharedRuntimes } from '../../runtimes/seam/pool.js';
import { probeTarget } from '../assembly/probe-targets.js';
import { Session } from '../session.js';
import { committedScenario } from '../skew/test/apps.js';
import { runProbe } from './adversarial.js';

let root = '';
afterAll(async () => {
  await disposeSharedRuntimes();
  if (root) await rm(root, { recursive: true, force: true });
});

const noInterpreters = () => Promise.reject(new Error('the TypeScript probe needs no interpreter'));

describe('the TypeScript probe with a verdict cache', () => {
  it("keeps the compiler's verdict and the names of the probe's SDK, and takes both from there on the next run", {
    timeout: 120_000,
  }, async () => {
    root = await mkdtemp(join(tmpdir(), 'concord-probe-cache-'));
    const target = probeTarget(await committedScenario('exotic-names'), 'typescript')!;
    await using first = new Session({ cacheRoot: root });
    const verdict = await runProbe([target], '3.9', noInterpreters, first);
    expect(verdict?.findings).toEqual([]);
    expect(verdict?.cells).toEqual([expect.objectContaining({ interpreter: 'tsc', outcome: 'ok' })]);
    expect(first.cache!.stats).toMatchObject({ hits: 0, stored: 2 });
    expect((await readdir(join(root, '.concord', 'cache'))).sort()).toEqual(['sdk-names', 'tsc']);

    await using second = new Session({ cacheRoot: root });
    const again = await runProbe([target], '3.9', noInterpreters, second);
    expect(again?.cells).toEqual(verdict?.cells);
    expect(again?.naming).toEqual(verdict?.naming);
    expect(second.cache!.stats).toMatchObject({ hits: 2, misses: 0, stored: 0 });
  });
});
