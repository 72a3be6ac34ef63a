import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACT_CAPS, readTgz, type TarCaps } from './artifact-tar.js';
import { type TestEntry, tgz } from './test/tgz.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-tgz-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let count = 0;
async function read(
  entries: readonly TestEntry[] | Buffer,
  caps: Partial<TarCaps> = {},
): Promise<Map<string, string> | string> {
  const file = join(dir, `a${count++}.tgz`);
  await writeFile(file, Buffer.isBuffer(entries) ? entries : await tgz(entries));
  try {
    const files = await readTgz(file, { ...ARTIFACT_CAPS, ...caps });
    return new Map([...files].map(([name, bytes]) => [name, bytes.toString('utf8')]));
  } catch (error) {
    return (error as Error).message.replace(file, 'A.tgz');
  }
}
const text = (name: string, length: number) => ({ name, text: 'x'.repeat(length) });

describe('reading an artifact .tgz in process', () => {
  it('gives the files by name, a leading ./ and folders dropped', async () => {
    expect(
      await read([
        { name: './', type: 'directory' },
        { name: './r1/', type: 'directory' },
        { name: './r1/manifest.json', text: '{}' },
      ]),
    ).toEqual(new Map([['r1/manifest.json', '{}']]));
  });

  it('caps one file at fileBytes: cap-1 and cap are read, cap+1 is refused naming the entry', async () => {
    expect(await read([text('f', 9)], { fileBytes: 10 })).toBeInstanceOf(Map);
    expect(await read([text('f', 10)], { fileBytes: 10 })).toBeInstanceOf(Map);
    expect(await read([text('f', 11)], { fileBytes: 10 })).toMatch(
      /^A\.tgz: entry f: is 11 bytes, more than one file of an artifact may be \(10\)/,
    );
  });

  it('caps all files at totalBytes: cap-1 and cap are read, cap+1 is refused naming the entry that passes it', async () => {
    expect(await read([text('a', 10), text('b', 9)], { totalBytes: 20 })).toBeInstanceOf(Map);
    expect(await read([text('a', 10), text('b', 10)], { totalBytes: 20 })).toBeInstanceOf(Map);
    expect(await read([text('a', 10), text('b', 11)], { totalBytes: 20 })).toMatch(
      /^A\.tgz: entry b: brings the files to 21 bytes, more than an artifact may hold \(20\)/,
    );
  });

  it('caps the entries, folders included: cap-1 and cap are read, cap+1 is refused naming it', async () => {
    const entries = (n: number) => [
      { name: 'r/', type: 'directory' as const },
      ...Array.from({ length: n - 1 }, (_, i) => text(`r/${i}`, 1)),
    ];
    expect(await read(entries(2), { entries: 3 })).toBeInstanceOf(Map);
    expect(await read(entries(3), { entries: 3 })).toBeInstanceOf(Map);
    expect(await read(entries(4), { entries: 3 })).toMatch(
      /^A\.tgz: entry r\/2: is entry 4, more than an artifact may hold \(3\)/,
    );
  });

  it('refuses a file claiming 1 GB at its header, without unpacking it, and a stream of zeros past the cap', async () => {
    // The header of a 1 GiB file followed by a little of its zeros: the whole would be a 1 MB .tgz of 1 GB.
    const header = Buffer.alloc(512);
    const archive = await tgz([{ name: 'zeros', text: '' }]);
    const { gunzipSync } = await import('node:zlib');
    gunzipSync(archive).copy(header, 0, 0, 512);
    header.write((1024 ** 3).toString(8).padStart(11, '0') + '\0', 124, 'latin1');
    header.fill(' ', 148, 156);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
    expect(await read(gzipSync(Buffer.concat([header, Buffer.alloc(1 << 20)])))).toMatch(
      /^A\.tgz: entry zeros: is 1073741824 bytes, more than one file of an artifact may be/,
    );
    expect(await read(gzipSync(Buffer.alloc(1 << 20)), { totalBytes: 1000, entries: 2 })).toMatch(
      /^A\.tgz: unpacks to more than \d+ bytes/,
    );
  });

  it.each<[string, TestEntry[], RegExp]>([
    [
      'a symbolic link',
      [{ name: 'r/manifest.json', type: 'symlink', linkname: '/etc/passwd' }],
      /entry r\/manifest\.json: is a symlink entry; an artifact holds only files and folders/,
    ],
    ['a hard link', [text('a', 1), { name: 'b', type: 'link', linkname: 'a' }], /entry b: is a link entry/],
    ['a FIFO', [{ name: 'p', type: 'fifo' }], /entry p: is a fifo entry/],
    [
      'an escape character in a name',
      [text('r/\u001b[2Jx', 1)],
      /entry r\/\\u001b\[2Jx: has a control character in its name/,
    ],
    ['a newline in a name', [text('r/a\nb', 1)], /entry r\/a\\u000ab: has a control character in its name/],
    ['a path leaving the folder', [text('../escape', 1)], /"\.\.\/escape" has an empty, "\." or "\.\." segment/],
    ['an absolute path', [text('/etc/cron.d/x', 1)], /"\/etc\/cron\.d\/x" is absolute/],
    [
      'one name twice after case folding',
      [text('r/files/a/python/transcript.yaml', 1), text('r/files/A/Python/transcript.yaml', 1)],
      /entry r\/files\/A\/Python\/transcript\.yaml: names the file of entry r\/files\/a\/python\/transcript\.yaml again/,
    ],
    [
      'one name twice after NFC',
      [text('r/caf\u00e9', 1), text('r/cafe\u0301', 1)],
      /entry r\/cafe\u0301: names the file of entry r\/caf\u00e9 again/,
    ],
    ['one name twice exactly', [text('r/a', 1), text('r/a', 2)], /entry r\/a: names the file of entry r\/a again/],
  ])('refuses %s, naming the entry', async (_name, entries, expected) => {
    const message = await read(entries);
    expect(message).toMatch(expected);
    expect(String(message).split('\n  hint:')[0]).not.toMatch(/[\u0000-\u001f]/);
  });

  it('refuses what is not a gzip archive', async () => {
    expect(await read(Buffer.from('not gzip at all'))).toMatch(
      /^A\.tgz: cannot be unpacked \(incorrect header check\)/,
    );
  });
});
