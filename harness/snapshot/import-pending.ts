import { lstat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { removeOnHostExit } from '../../runtimes/seam/host-exit.js';
import { GuardError } from '../guarded/folder.js';
import { printable } from '../guarded/json-input.js';
import { hasControlCharacter } from '../text/visible.js';
import { ARTIFACT_CAPS, readTgz, type TarCaps } from './artifact-tar.js';
import {
  FILES,
  MANIFEST,
  PENDING_ARTIFACT,
  type PendingChange,
  parseManifest,
  pendingRunIds,
  proposedFile,
  readPending,
  writePending,
} from './pending.js';
import { foldedPath, repeatedPath, SNAPSHOT_FILE_NAMES } from './pending-schema.js';

/** One run of an artifact, read and checked, ready to be written. */
interface ImportedRun {
  runId: string;
  /** How messages name it: its folder, or the archive and its entry. */
  named: string;
  proposals: Array<PendingChange & { proposed?: string }>;
}

const FIX = 'name the concord-pending artifact the gate uploaded (a folder or a .tgz)';

/**
 * Takes the pending proposals of another machine (the CI's `concord-pending` artifact: a pending folder,
 * one run folder, or a `.tgz` of either) into this project's pending folder, so `concord review` applies
 * them here. The artifact is untrusted: a `.tgz` is read in this process under `caps`, links are never
 * followed, every manifest is checked against the schema with only snapshot files of known kinds, and
 * every run is read and checked before anything is written; a run id already pending here is refused.
 * Each proposal keeps the fingerprint of the snapshot it was made against, so one made against a
 * different snapshot is refused by review, named. An interrupted import leaves no run of it behind.
 * Returns the run ids taken in.
 */
export async function importPending(
  source: string,
  pendingRoot: string,
  caps: Readonly<TarCaps> = ARTIFACT_CAPS,
): Promise<string[]> {
  const path = resolve(source);
  const stats = await lstat(path).catch(() => undefined);
  if (!stats) throw new GuardError(path, 'does not exist', 'name the downloaded pending artifact: a folder or a .tgz');
  if (stats.isSymbolicLink())
    throw new GuardError(path, 'is a symbolic link', 'name the artifact itself; concord does not follow links');
  let runs: ImportedRun[];
  if (stats.isFile()) {
    if (!/\.(tgz|tar\.gz)$/.test(path))
      throw new GuardError(path, 'is neither a folder nor a .tgz', 'unpack the artifact, or name its .tgz');
    runs = await runsOfTgz(path, caps);
  } else if (stats.isDirectory()) {
    runs = await runsOfFolder(path);
  } else {
    throw new GuardError(path, 'is neither a folder nor a .tgz', FIX);
  }
  if (runs.length === 0) throw new GuardError(path, 'holds no pending run (no manifest.json)', FIX);
  const repeated = repeatedPath(runs.map((r) => r.runId));
  if (repeated)
    throw new GuardError(
      runs[repeated.index]!.named,
      `is the run of ${runs[repeated.earlier]!.named} again (the same after case folding and NFC)`,
      FIX,
    );
  const here = new Set((await pendingRunIds(pendingRoot)).map(foldedPath));
  for (const run of runs) {
    if (here.has(foldedPath(run.runId))) {
      throw new GuardError(
        run.named,
        `is run ${run.runId}, which is already pending in ${pendingRoot}`,
        `review it first (concord review --run ${run.runId}), or reject it; an import never mixes into a pending run`,
      );
    }
  }
  // Until every run is written, an exit (an error, SIGTERM, Ctrl-C) removes the runs this import made.
  const forget = runs.map((run) => removeOnHostExit(join(pendingRoot, run.runId)));
  for (const run of runs) await writePending(pendingRoot, run.runId, run.proposals);
  for (const f of forget) f();
  return runs.map((r) => r.runId);
}

function checkRunId(runId: string, named: string): void {
  if (
    runId === '' ||
    runId.startsWith('.') ||
    runId.includes('/') ||
    runId.includes('\\') ||
    hasControlCharacter(runId)
  ) {
    throw new GuardError(named, `has the run id ${printable(JSON.stringify(runId))}, which cannot name a folder`, FIX);
  }
}

/** A pending folder of runs, or one run folder (it holds a manifest). */
async function runsOfFolder(folder: string): Promise<ImportedRun[]> {
  const single = await lstat(join(folder, MANIFEST))
    .then((s) => s.isFile())
    .catch(() => false);
  const root = single ? dirname(folder) : folder;
  const runIds = single ? [basename(folder)] : await pendingRunIds(root);
  const runs: ImportedRun[] = [];
  for (const runId of runIds) {
    const named = join(root, runId);
    checkRunId(runId, named);
    const run = await readPending(root, runId, true);
    const proposals: ImportedRun['proposals'] = [];
    for (const change of run.changes)
      proposals.push(change.action === 'write' ? { ...change, proposed: await proposedFile(run, change) } : change);
    runs.push({ runId, named, proposals });
  }
  return runs;
}

/**
 * The runs of a `.tgz`: `[concord-pending/]<run-id>/manifest.json` with its `files/<scenario>/<runtime>/<file>`,
 * or one run's `manifest.json` and `files/…` at the top (its id is the manifest's `runId`). Any other entry,
 * a proposed file of an unknown kind or one no manifest names is refused naming the entry.
 */
async function runsOfTgz(file: string, caps: Readonly<TarCaps>): Promise<ImportedRun[]> {
  const entries = await readTgz(file, caps);
  type Entry = { name: string; bytes: Buffer };
  const byRun = new Map<string, { manifest?: Entry; files: Map<string, Entry> }>();
  const refuse = (name: string, problem: string) =>
    new GuardError(
      `${file}: entry ${printable(name)}`,
      problem,
      `an artifact holds <run-id>/${MANIFEST} and <run-id>/${FILES}/<scenario>/<runtime>/<file>, the file one of ${SNAPSHOT_FILE_NAMES.join(', ')}; ${FIX}`,
    );
  for (const [name, bytes] of entries) {
    const segments = name.split('/');
    if (segments[0] === PENDING_ARTIFACT && segments.length > 1) segments.shift();
    const top = segments[0] === MANIFEST || segments[0] === FILES;
    const runKey = top ? '' : segments.shift()!;
    const run = byRun.get(runKey) ?? { files: new Map<string, Entry>() };
    byRun.set(runKey, run);
    if (segments.length === 1 && segments[0] === MANIFEST) {
      run.manifest = { name, bytes };
    } else if (segments[0] === FILES && segments.length === 4) {
      if (!SNAPSHOT_FILE_NAMES.includes(segments[3]!))
        throw refuse(name, `is not a snapshot file (${SNAPSHOT_FILE_NAMES.join(', ')})`);
      run.files.set(segments.slice(1).join('/'), { name, bytes });
    } else {
      throw refuse(name, 'is not a file of a pending artifact');
    }
  }
  const runs: ImportedRun[] = [];
  for (const [runKey, run] of byRun) {
    if (run.manifest === undefined) {
      const [first] = run.files.values();
      throw refuse(
        first!.name,
        `belongs to no run: the artifact has no ${runKey === '' ? '' : `${runKey}/`}${MANIFEST}`,
      );
    }
    const named = `${file}: entry ${printable(run.manifest.name)}`;
    const changes = parseManifest(run.manifest.bytes, named, FIX, true);
    const runId =
      runKey !== '' ? runKey : (JSON.parse(run.manifest.bytes.toString('utf8')) as { runId?: unknown }).runId;
    if (typeof runId !== 'string')
      throw new GuardError(named, '$.runId is missing: a manifest at the top of an archive names its run', FIX);
    checkRunId(runId, named);
    const proposals: ImportedRun['proposals'] = [];
    for (const change of changes) {
      if (change.action !== 'write') {
        proposals.push(change);
        continue;
      }
      const proposed = run.files.get(change.path);
      if (proposed === undefined)
        throw new GuardError(
          named,
          `proposes ${change.path}, and the artifact holds no ${FILES}/${change.path} for it`,
          FIX,
        );
      run.files.delete(change.path);
      proposals.push({ ...change, proposed: proposed.bytes.toString('utf8') });
    }
    const [stray] = run.files.values();
    if (stray) throw refuse(stray.name, `is named by no change of ${printable(run.manifest.name)}`);
    runs.push({ runId, named, proposals });
  }
  return runs;
}
