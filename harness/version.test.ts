import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { judgedBy } from './cache/verdict-cache.js';
import { concordCodeHash, concordVersion, hashOfCode } from './version.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('what judged a verdict', () => {
  it('changes with any file of concord’s code, and with nothing else in its folders', async () => {
    const root = await mkdtemp(join(tmpdir(), 'concord-code-hash-'));
    dirs.push(root);
    await mkdir(join(root, 'harness', 'checks'), { recursive: true });
    await mkdir(join(root, 'harness', 'test'), { recursive: true });
    await writeFile(join(root, 'harness', 'checks', 'a.js'), 'export const a = 1;\n');
    const first = hashOfCode([root]);
    // Tests, maps, declarations, fixtures and files of other kinds are not what judges.
    await writeFile(join(root, 'harness', 'checks', 'a.test.js'), 'test');
    await writeFile(join(root, 'harness', 'checks', 'a.js.map'), '{}');
    await writeFile(join(root, 'harness', 'checks', 'a.d.ts'), 'export {};');
    await writeFile(join(root, 'harness', 'test', 'fixture.js'), 'x');
    await writeFile(join(root, 'harness', 'notes.md'), '# notes');
    expect(hashOfCode([root])).toBe(first);
    // An edited build of the same version is another judge.
    await writeFile(join(root, 'harness', 'checks', 'a.js'), 'export const a = 2;\n');
    expect(hashOfCode([root])).not.toBe(first);
    await writeFile(join(root, 'harness', 'checks', 'a.js'), 'export const a = 1;\n');
    await mkdir(join(root, 'runtimes', 'cpython', 'guest'), { recursive: true });
    await writeFile(join(root, 'runtimes', 'cpython', 'guest', 'driver.py'), 'print(1)\n');
    expect(hashOfCode([root])).not.toBe(first);
  });

  it('names the version, the code and the engine', () => {
    expect(judgedBy()).toBe(`concord ${concordVersion()} code ${concordCodeHash()} node ${process.version}`);
    expect(concordCodeHash()).toMatch(/^[0-9a-f]{64}$/);
  });
});
