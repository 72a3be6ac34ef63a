import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNamedInput, readRegularFile } from './read-regular.js';

describe('readRegularFile', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'concord-read-regular-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('reads a file up to the cap, and refuses one byte more before reading it', async () => {
    await writeFile(join(root, 'under.json'), 'x'.repeat(9));
    await writeFile(join(root, 'at.json'), 'x'.repeat(10));
    await writeFile(join(root, 'over.json'), 'x'.repeat(11));
    expect((await readRegularFile(join(root, 'under.json'), 'a body', 10)).length).toBe(9);
    expect((await readRegularFile(join(root, 'at.json'), 'a body', 10)).length).toBe(10);
    await expect(readRegularFile(join(root, 'over.json'), 'a body', 10)).rejects.toThrow(
      'is 11 bytes, more than a body may be (10)',
    );
  });

  it('refuses a link, a pipe (without waiting for a writer), a folder and a missing file, naming each', async () => {
    await writeFile(join(root, 'target.json'), '{}');
    await symlink(join(root, 'target.json'), join(root, 'link.json'));
    expect(spawnSync('mkfifo', [join(root, 'pipe.json')]).status).toBe(0);
    await mkdir(join(root, 'folder.json'));
    const refusal = (name: string) => readRegularFile(join(root, name), 'a body', 100).then(() => 'read', String);
    expect(await refusal('link.json')).toMatch(/is a symbolic link, not a body/);
    expect(await refusal('pipe.json')).toMatch(/is not a regular file, not a body/);
    expect(await refusal('folder.json')).toMatch(/is a folder, not a body/);
    expect(await refusal('missing.json')).toMatch(/does not exist/);
  });

  it("reads the user's own input through a link, judging what it leads to", async () => {
    await writeFile(join(root, 'own.json'), '{"a": 1}');
    await symlink(join(root, 'own.json'), join(root, 'own-link.json'));
    expect(spawnSync('mkfifo', [join(root, 'own-pipe.json')]).status).toBe(0);
    await symlink(join(root, 'own-pipe.json'), join(root, 'pipe-link.json'));
    expect(await readNamedInput(join(root, 'own-link.json'), 'a body')).toBe('{"a": 1}');
    await expect(readNamedInput(join(root, 'pipe-link.json'), 'a body')).rejects.toThrow(
      'is not a regular file, not a body',
    );
    await symlink(join(root, 'loop-b.json'), join(root, 'loop-a.json'));
    await symlink(join(root, 'loop-a.json'), join(root, 'loop-b.json'));
    await expect(readNamedInput(join(root, 'loop-a.json'), 'a body')).rejects.toThrow(
      'is a link that leads round in a loop',
    );
  });

  it("reads a named input's text as an editor wrote it: UTF-8 with or without a byte order mark, or UTF-16 with one", async () => {
    const text = '{"say": "naïve ✓"}\n';
    const utf16be = Buffer.from(text, 'utf16le').swap16();
    const files: Array<[string, Buffer]> = [
      ['plain.json', Buffer.from(text)],
      ['utf8-bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])],
      ['utf16le.json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
      ['utf16be.json', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be])],
    ];
    for (const [name, bytes] of files) {
      await writeFile(join(root, name), bytes);
      expect(await readNamedInput(join(root, name), 'a body'), name).toBe(text);
    }
    // A mark that is not at the start is a character of the text.
    await writeFile(join(root, 'inner.json'), `a\uFEFFb`);
    expect(await readNamedInput(join(root, 'inner.json'), 'a body')).toBe('a\uFEFFb');
  });
});
