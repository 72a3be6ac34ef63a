import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runtimeImageHash, runtimeImageInputs } from './content-hash.js';

describe('runtime image content hash', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'concord-content-hash-'));
    writeFileSync(join(dir, 'Dockerfile'), 'FROM scratch\n');
    mkdirSync(join(dir, 'guest', 'pkg', '__pycache__'), { recursive: true });
    writeFileSync(join(dir, 'guest', 'main.py'), 'print(1)\n');
    writeFileSync(join(dir, 'guest', 'pkg', 'util.py'), 'X = 1\n');
    writeFileSync(join(dir, 'guest', 'pkg', '__pycache__', 'util.cpython-311.pyc'), 'bytecode');
    // Host-side sources beside the guest are not copied into the image.
    writeFileSync(join(dir, 'index.ts'), 'export {};\n');
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('covers the Dockerfile and every guest source, sorted, without bytecode or host code', () => {
    expect(runtimeImageInputs(dir)).toEqual(['Dockerfile', 'guest/main.py', 'guest/pkg/util.py']);
  });

  it('is stable for the same files', () => {
    expect(runtimeImageHash(dir)).toMatch(/^[0-9a-f]{64}$/);
    expect(runtimeImageHash(dir)).toBe(runtimeImageHash(dir));
  });

  it('changes when a guest file, the Dockerfile, or a file name changes, or a file is added', () => {
    const seen = new Set([runtimeImageHash(dir)]);
    const expectNew = (): void => {
      const hash = runtimeImageHash(dir);
      expect(seen.has(hash)).toBe(false);
      seen.add(hash);
    };
    writeFileSync(join(dir, 'guest', 'pkg', 'util.py'), 'X = 2\n');
    expectNew();
    writeFileSync(join(dir, 'Dockerfile'), 'FROM scratch\nUSER 1\n');
    expectNew();
    renameSync(join(dir, 'guest', 'main.py'), join(dir, 'guest', 'main2.py'));
    expectNew();
    writeFileSync(join(dir, 'guest', 'extra.py'), '');
    expectNew();
  });

  it('ignores bytecode caches and host-side files', () => {
    const before = runtimeImageHash(dir);
    writeFileSync(join(dir, 'guest', 'pkg', '__pycache__', 'util.cpython-39.pyc'), 'other bytecode');
    writeFileSync(join(dir, 'index.ts'), 'export const changed = true;\n');
    expect(runtimeImageHash(dir)).toBe(before);
  });

  it('hashes the real checkout', () => {
    expect(runtimeImageInputs()).toContain('Dockerfile');
    expect(runtimeImageHash()).toMatch(/^[0-9a-f]{64}$/);
  });
});
