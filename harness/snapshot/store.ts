import { LineCounter, parseDocument } from 'yaml';
import { GuardedFolder } from '../guarded/folder.js';
import { isRuntimeName } from '../runtime-names.js';
import { syntaxErrorPlace } from '../scenario/yaml-input.js';
import { type TextDiff, textDiff } from '../text/diff.js';
import { SNAPSHOT_FILE_NAMES, type SnapshotFiles } from './transcript.js';

/** What became of one snapshot file. */
export type FileStatus = 'same' | 'changed' | 'new' | 'garbage' | 'obsolete';

export interface FileVerdict {
  /** Path below the snapshots folder, e.g. `nested-reads/python/transcript.yaml`. */
  path: string;
  status: FileStatus;
  /** The file this run produced (absent for obsolete files). */
  proposed?: string;
  /** From the committed file to the proposed one (changed files); `renderDiff` shows it. */
  diff?: TextDiff;
  /** Why a committed file is unreadable (garbage files). */
  reason?: string;
}

/** Compares the files of one scenario × runtime with the committed ones in `snapshotsDir/<folder>/`. */
export async function compareFolder(
  snapshotsDir: string,
  folder: string,
  files: SnapshotFiles,
): Promise<FileVerdict[]> {
  const snapshots = snapshotFolder(snapshotsDir);
  const present = (await snapshots.list(folder)).map((e) => e.name);
  const verdicts: FileVerdict[] = [];
  for (const [name, proposed] of files) {
    const path = `${folder}/${name}`;
    if (!present.includes(name)) {
      verdicts.push({ path, status: 'new', proposed });
      continue;
    }
    const bytes = (await snapshots.read(path))!;
    const reason = garbageReason(name, bytes);
    if (reason) {
      verdicts.push({
        path,
        status: 'garbage',
        proposed,
        reason: `snapshots/${path} ${reason}; regenerate it with \`concord gate --update=all\` or restore it from git`,
      });
      continue;
    }
    const committed = committedText(bytes);
    if (committed === proposed) verdicts.push({ path, status: 'same', proposed });
    else verdicts.push({ path, status: 'changed', proposed, diff: snapshotDiff(path, committed, proposed) });
  }
  for (const name of present.filter((n) => !files.has(n) && SNAPSHOT_FILE_NAMES.has(n)).sort())
    verdicts.push({ path: `${folder}/${name}`, status: 'obsolete' });
  return verdicts;
}

/**
 * A committed snapshot as the text to compare. git with `core.autocrlf` (the default of Git for Windows) checks
 * files out with CRLF line endings where concord wrote LF: such a file is the same snapshot, and a diff shows
 * only what changed. concord's snapshots never hold a carriage return of their own: YAML and JSON escape one,
 * and the SDK renderers put none into comments.
 */
export function committedText(bytes: Buffer): string {
  return bytes.toString('utf8').replace(/\r\n/g, '\n');
}

/** The committed snapshot at `path` below the snapshots folder as `committedText`, or undefined when there is none. */
export async function readCommitted(snapshotsDir: string, path: string): Promise<string | undefined> {
  const bytes = await snapshotFolder(snapshotsDir).read(path);
  return bytes === undefined ? undefined : committedText(bytes);
}

/** Why a committed snapshot file cannot be a snapshot: not text, or not the format its name says. */
export function garbageReason(name: string, bytes: Buffer): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'is not UTF-8 text';
  }
  if (text.includes('\0')) return 'contains NUL bytes';
  if (/\.ya?ml$/.test(name)) {
    const lines = new LineCounter();
    const [error] = parseDocument(text, { prettyErrors: false, lineCounter: lines }).errors;
    if (error) {
      const { line, col } = syntaxErrorPlace(text, lines, error);
      return `is not valid YAML (line ${line}, column ${col}): ${error.message.split('\n')[0]}`;
    }
  }
  if (name.endsWith('.json')) {
    try {
      JSON.parse(text);
    } catch (error) {
      return `is not valid JSON: ${(error as Error).message}`;
    }
  }
  return undefined;
}

/** The diff a reviewer reads for one snapshot file (`path` below the snapshots folder). */
export function snapshotDiff(path: string, committed: string, proposed: string): TextDiff {
  const label = `snapshots/${path}`;
  return textDiff({ before: `${label} (committed)`, after: `${label} (this run)` }, committed, proposed, {
    json: path.endsWith('.json'),
  });
}

/** The guarded door to the snapshots folder: every read, write and delete below it goes through here. */
export function snapshotFolder(snapshotsDir: string): GuardedFolder {
  return new GuardedFolder(snapshotsDir, 'snapshots');
}

/** Snapshot folders on disk, as `scenario/runtime`. */
export async function snapshotFolders(snapshotsDir: string): Promise<string[]> {
  const snapshots = snapshotFolder(snapshotsDir);
  const folders: string[] = [];
  for (const scenario of await snapshots.list('')) {
    if (!scenario.isDirectory()) continue;
    for (const runtime of await snapshots.list(scenario.name)) {
      // A folder that is not a runtime's (an editor's, a team's notes) is not a pair's snapshots.
      if (runtime.isDirectory() && isRuntimeName(runtime.name)) folders.push(`${scenario.name}/${runtime.name}`);
    }
  }
  return folders.sort();
}

/** Applies one verdict to the snapshots folder: writes the proposed file, or removes an obsolete one. */
export async function applyVerdict(
  snapshotsDir: string,
  verdict: Pick<FileVerdict, 'path' | 'status' | 'proposed'>,
): Promise<void> {
  const snapshots = snapshotFolder(snapshotsDir);
  if (verdict.proposed === undefined) await snapshots.remove(verdict.path);
  else await snapshots.write(verdict.path, verdict.proposed);
}

/** What is at `path` below the snapshots folder now, as a proposal records it (null: nothing). */
export function snapshotFingerprint(snapshotsDir: string, path: string): Promise<string | null> {
  return snapshotFolder(snapshotsDir).fingerprint(path);
}

export async function sweepFolder(snapshotsDir: string, folder: string): Promise<void> {
  await snapshotFolder(snapshotsDir).sweep(folder);
}
