import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { GuardError, GuardedFolder, relativeSegments } from '../guarded/folder.js';
import { jsonChecker, parseJsonText } from '../guarded/json-input.js';
import { manifestSchema, repeatedPath } from './pending-schema.js';
import type { FileStatus } from './store.js';

/** A proposed change to one snapshot file, waiting for `concord review`. */
export interface PendingChange {
  /** Path below the snapshots folder. */
  path: string;
  /** `write` replaces or creates the file with the proposal; `delete` removes an obsolete file or folder. */
  action: 'write' | 'delete';
  status: FileStatus;
  /**
   * The fingerprint of what was at `path` when the proposal was made (`null`: nothing was there). Review
   * accepts only a proposal whose base still matches, so an old run never overwrites a newer snapshot.
   */
  base: string | null;
}

export interface PendingRun {
  runId: string;
  dir: string;
  changes: PendingChange[];
}

/** What the CI recipes call the uploaded `.concord/pending/` folder; `concord review --from` takes it back. */
export const PENDING_ARTIFACT = 'concord-pending';

export const MANIFEST = 'manifest.json';
export const FILES = 'files';

/** A fresh run id: sortable by time, unique across concurrent runs. */
export function newRunId(now = new Date()): string {
  return (
    now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z') +
    '-' +
    randomBytes(3).toString('hex')
  );
}

/** The guarded door to the pending folder. */
function pendingFolder(pendingRoot: string): GuardedFolder {
  return new GuardedFolder(pendingRoot, '.concord/pending');
}

/**
 * Writes the proposals of one gate run to `<pendingRoot>/<run-id>/` (a CI artifact, and the input of
 * review). The newest run wins: every older proposal for a path this run judged (`judged(path)`) leaves
 * its run, so each snapshot file has at most one proposal waiting.
 */
export async function writePending(
  pendingRoot: string,
  runId: string,
  proposals: ReadonlyArray<PendingChange & { proposed?: string }>,
  judged: (path: string) => boolean = () => false,
): Promise<string | undefined> {
  const pending = pendingFolder(pendingRoot);
  relativeSegments(runId, pendingRoot);
  if (proposals.length > 0) {
    try {
      for (const p of proposals)
        if (p.action === 'write' && p.proposed !== undefined)
          await pending.write(`${runId}/${FILES}/${p.path}`, p.proposed);
      const changes = proposals.map(({ path, action, status, base }) => ({ path, action, status, base }));
      await pending.write(`${runId}/${MANIFEST}`, manifestText(runId, changes));
    } catch (error) {
      // A run's proposals are whole or absent: without its manifest (a full disk), what was written goes.
      await pending.remove(runId).catch(() => undefined);
      throw error;
    }
  }
  const fresh = new Set(proposals.map((p) => p.path));
  for (const older of await pendingRunIds(pendingRoot)) {
    if (older === runId) continue;
    let run: PendingRun;
    try {
      run = await readPending(pendingRoot, older);
    } catch {
      // A run review cannot read is left as it is: review names it.
      continue;
    }
    const superseded = run.changes.filter((c) => fresh.has(c.path) || judged(c.path));
    for (const change of superseded) await settleChange(pendingRoot, run, change);
  }
  return proposals.length > 0 ? join(pendingRoot, runId) : undefined;
}

/**
 * The pending runs, oldest first: the folders holding a manifest. A run still writing its proposals (another gate
 * now), or cut off before its manifest (killed), proposes nothing yet. A run folder that cannot be listed (a link
 * in it) stays a run, so that reading it names the problem.
 */
export async function pendingRunIds(pendingRoot: string): Promise<string[]> {
  const pending = pendingFolder(pendingRoot);
  const runs = (await pending.list('')).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
  const proposing = await Promise.all(
    runs.map((id) =>
      pending.list(id).then(
        (entries) => entries.some((e) => e.name === MANIFEST && e.isFile()),
        () => true,
      ),
    ),
  );
  return runs.filter((_, i) => proposing[i]).sort();
}

let checkers: Map<boolean, (data: unknown) => string | undefined> | undefined;

/**
 * The changes of a pending manifest (its bytes, `file` naming it in messages). The pending folder travels
 * as a CI artifact, so the manifest is untrusted input: checked against the manifest schema (`knownFiles`:
 * only snapshot files of known kinds, for an artifact from elsewhere), every path's segments checked, and a
 * path named twice (after case folding and NFC) refused. Every refusal names the file and the JSON path.
 */
export function parseManifest(bytes: Buffer, file: string, fix: string, knownFiles = false): PendingChange[] {
  const parsed = parseJsonText(bytes.toString('utf8'));
  if ('problem' in parsed) throw new GuardError(file, `cannot read the pending manifest: it ${parsed.problem}`, fix);
  checkers ??= new Map();
  let check = checkers.get(knownFiles);
  if (!check) checkers.set(knownFiles, (check = jsonChecker(manifestSchema(knownFiles))));
  const problem = check(parsed.value);
  if (problem !== undefined) throw new GuardError(file, problem, fix);
  const entries = (parsed.value as { changes: Array<PendingChange & { base?: string | null }> }).changes;
  entries.forEach((entry, i) => relativeSegments(entry.path, `${file}: $.changes[${i}].path`));
  const repeated = repeatedPath(entries.map((e) => e.path));
  if (repeated)
    throw new GuardError(
      file,
      `$.changes[${repeated.index}].path ${JSON.stringify(entries[repeated.index]!.path)} names the file of $.changes[${repeated.earlier}].path again`,
      fix,
    );
  // A manifest without a base cannot prove what it was made against: it reads as stale.
  return entries.map(({ path, action, status, base }) => ({
    path,
    action,
    status,
    base: base === undefined ? 'unknown' : base,
  }));
}

/** The manifest of one pending run; `knownFiles` as in parseManifest. */
export async function readPending(pendingRoot: string, runId: string, knownFiles = false): Promise<PendingRun> {
  const pending = pendingFolder(pendingRoot);
  relativeSegments(runId, '--run');
  const dir = join(pendingRoot, runId);
  const file = join(dir, MANIFEST);
  const fix = `remove ${dir} and run the gate again`;
  const bytes = await pending.read(`${runId}/${MANIFEST}`);
  if (bytes === undefined) throw new GuardError(file, 'cannot read the pending manifest (it is missing)', fix);
  return { runId, dir, changes: parseManifest(bytes, file, fix, knownFiles) };
}

export async function proposedFile(run: PendingRun, change: PendingChange): Promise<string> {
  const bytes = await pendingFolder(join(run.dir, '..')).read(`${run.runId}/${FILES}/${change.path}`);
  if (bytes === undefined)
    throw new GuardError(
      join(run.dir, FILES, change.path),
      'the proposed file is missing',
      `reject it with \`concord review --reject-all --run ${run.runId}\`, or remove ${run.dir} and run the gate again`,
    );
  return bytes.toString('utf8');
}

/**
 * Takes one decided proposal out of its run at once: the manifest loses it, its proposed file goes, and
 * the run folder goes with its last proposal. An interrupted review therefore leaves exactly the undecided.
 */
export async function settleChange(pendingRoot: string, run: PendingRun, change: PendingChange): Promise<void> {
  const pending = pendingFolder(pendingRoot);
  run.changes = run.changes.filter((c) => c !== change);
  if (run.changes.length === 0) {
    await pending.remove(run.runId);
    return;
  }
  await pending.write(`${run.runId}/${MANIFEST}`, manifestText(run.runId, run.changes));
  if (change.action === 'write') await pending.remove(`${run.runId}/${FILES}/${change.path}`);
}

function manifestText(runId: string, changes: readonly PendingChange[]): string {
  return JSON.stringify({ runId, changes }, null, 2) + '\n';
}
