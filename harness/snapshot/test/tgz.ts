import { gzipSync } from 'node:zlib';
import { type Header, pack } from 'tar-stream';

/** One entry of a test archive: a file with its text, or any other header (a link, a folder) as given. */
export type TestEntry = { name: string; text: string } | (Partial<Header> & { name: string });

/** A `.tgz` of `entries` in order, built in memory as GNU tar or CI's archiver would write it. */
export async function tgz(entries: readonly TestEntry[]): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk) => chunks.push(chunk as Buffer));
  const done = new Promise((resolve) => archive.on('end', () => resolve(undefined)));
  for (const entry of entries) {
    if ('text' in entry) archive.entry({ name: entry.name }, entry.text);
    else archive.entry(entry);
  }
  archive.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}
