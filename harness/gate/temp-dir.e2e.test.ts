import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { writeStockProject } from '../project/stock-project.js';
import { concordIn } from '../test/concord-cli.js';

const scratch: string[] = [];
afterAll(() => Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true }))));

(await Host.with('docker')).describe('what a gate leaves in the temp dir', () => {
  it('nothing: a TypeScript plugin (tsx) and a container runtime (testcontainers) leave TMPDIR as they found it', {
    timeout: 240_000,
  }, async () => {
    const root = await mkdtemp(join(tmpdir(), 'concord-temp-project-'));
    const temp = await mkdtemp(join(tmpdir(), 'concord-temp-dir-'));
    scratch.push(root, temp);
    await writeStockProject(root, 'stock', { runtimes: '[typescript, python-container]' });
    const gate = concordIn(() => root, 240_000)({ TMPDIR: temp }, 'gate', '--update=new');
    expect(gate.status, gate.stdout + gate.stderr).toBe(0);
    expect(gate.stdout).toContain('stock × python-container');
    expect(await readdir(temp)).toEqual([]);
  });
});
