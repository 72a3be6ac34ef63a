import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import { GuardError, relativeSegments } from '../guarded/folder.js';
import { printable } from '../guarded/json-input.js';
import { hasControlCharacter } from '../text/visible.js';
import { foldedPath } from './pending-schema.js';

/**
 * How much of an artifact concord unpacks, at most: bytes of all files, entries (files and folders), bytes of one file.
 */
export interface TarCaps {
  totalBytes: number;
  entries: number;
  fileBytes: number;
}

/** A pending artifact is a few snapshot files per pair: far below these. */
export const ARTIFACT_CAPS: Readonly<TarCaps> = {
  totalBytes: 128 * 1024 * 1024,
  entries: 10_000,
  fileBytes: 16 * 1024 * 1024,
};

/** Headers, padding and the end blocks of one entry, at most, on top of its bytes (a long name takes a pax header). */
const ENTRY_OVERHEAD = 8 * 1024;

const FIX = 'download the artifact again, or unpack it yourself and name the folder';

/**
 * The files of a `.tgz`, read in this process as the bytes arrive (no external `tar`, nothing written to
 * disk): every entry is refused naming it (exit 2) when it is not a file or folder, has a name with a
 * control character, an absolute or `..` path, or the name of an earlier file after case folding and NFC,
 * or when the archive passes a cap. Decompression stops at the first refusal. Names lose a leading `./`.
 */
export async function readTgz(file: string, caps: Readonly<TarCaps> = ARTIFACT_CAPS): Promise<Map<string, Buffer>> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  const files = new Map<string, Buffer>();
  let unpacked = 0;
  const rawCap = caps.totalBytes + (caps.entries + 2) * ENTRY_OVERHEAD;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      unpacked += chunk.length;
      if (unpacked > rawCap) done(new GuardError(file, `unpacks to more than ${rawCap} bytes`, FIX));
      else done(null, chunk);
    },
  });
  const tar = extract();
  const reading = pipeline(handle.createReadStream({ autoClose: false }), createGunzip(), counter, tar);
  // Awaited below; a failure before then is the loop's to report.
  reading.catch(() => undefined);
  const admit = entryRules(file, caps);
  try {
    for await (const item of tar) {
      const name = admit(item.header);
      if (name === undefined) {
        item.resume();
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of item) chunks.push(chunk as Buffer);
      files.set(name, Buffer.concat(chunks));
    }
    await reading;
    return files;
  } catch (error) {
    tar.destroy();
    await reading.catch(() => undefined);
    if (error instanceof GuardError) throw error;
    throw new GuardError(file, `cannot be unpacked (${(error as Error).message.split('\n')[0]})`, FIX);
  } finally {
    await handle.close();
  }
}

/**
 * The rules every entry of an artifact is held to, in order: what each one is to be read as (its name without a
 * leading `./`), undefined for a folder (nothing to read), or a GuardError naming it.
 */
function entryRules(file: string, caps: Readonly<TarCaps>): (header: Header) => string | undefined {
  const folded = new Map<string, string>();
  const entry = (name: string) => `${file}: entry ${printable(name)}`;
  let entries = 0;
  let total = 0;
  return (header) => {
    const raw = header.name;
    if (++entries > caps.entries)
      throw new GuardError(entry(raw), `is entry ${entries}, more than an artifact may hold (${caps.entries})`, FIX);
    if (hasControlCharacter(raw)) throw new GuardError(entry(raw), 'has a control character in its name', FIX);
    const name = raw.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
    const isFolder = header.type === 'directory';
    if (!isFolder && header.type !== 'file' && header.type !== 'contiguous-file')
      throw new GuardError(
        entry(raw),
        `is a ${header.type ?? 'special'} entry; an artifact holds only files and folders`,
        FIX,
      );
    if (name === '' || name === '.') {
      if (!isFolder) throw new GuardError(entry(raw), 'is a file without a name', FIX);
      return undefined;
    }
    relativeSegments(name, entry(raw));
    if (isFolder) return undefined;
    const size = header.size ?? 0;
    if (size > caps.fileBytes)
      throw new GuardError(
        entry(raw),
        `is ${size} bytes, more than one file of an artifact may be (${caps.fileBytes})`,
        FIX,
      );
    total += size;
    if (total > caps.totalBytes)
      throw new GuardError(
        entry(raw),
        `brings the files to ${total} bytes, more than an artifact may hold (${caps.totalBytes})`,
        FIX,
      );
    const earlier = folded.get(foldedPath(name));
    if (earlier !== undefined)
      throw new GuardError(
        entry(raw),
        `names the file of entry ${printable(earlier)} again (the same after case folding and NFC)`,
        FIX,
      );
    folded.set(foldedPath(name), raw);
    return name;
  };
}
