import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { GuardedFolder, GuardError, relativeSegments } from '../guarded/folder.js';
import type { FileStatus } from './store.js';

/** A proposed change to one snapshot file, waiting for `concord review`. */
export interface PendingChange {
  /** Path below the snapshots folder. */
  path: string;
  /** `write` replaces or creates the file with the proposal; `delete` removes an obsolete file or folder. */
  action: 'write' | 'delete';
  status: FileStatus;
}

export interface PendingRun {
  runId: string;
  dir: string;
  changes: PendingChange[];
}

const MANIFEST = 'manifest.json';
const FILES = 'files';

/** A fresh run id: sortable by time, unique across concurrent runs. */
export function newRunId(now = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z') + '-' + randomBytes(3).toString('hex');
}

/** Writes the proposals of one gate run to `<pendingRoot>/<run-id>/` (a CI artifact, and the input of review). */
export async function writePending(pendingRoot: string, runId: string, proposals: ReadonlyArray<PendingChange & { proposed?: string }>): Promise<string> {
  const pending = pendingFolder(pendingRoot);
  relativeSegments(runId, pendingRoot);
  for (const p of proposals) if (p.action === 'write' && p.proposed !== undefined) await pending.write(`${runId}/${FILES}/${p.path}`, p.proposed);
  const changes = proposals.map(({ path, action, status }) => ({ path, action, status }));
  await pending.write(`${runId}/${MANIFEST}`, JSON.stringify({ runId, changes }, null, 2) + '\n');
  return join(pendingRoot, runId);
}

/** The guarded door to the pending folder. */
function pendingFolder(pendingRoot: string): GuardedFolder {
  return new GuardedFolder(pendingRoot, '.concord/pending');
}

/** The pending runs, oldest first. */
export async function pendingRunIds(pendingRoot: string): Promise<string[]> {
  const entries = await pendingFolder(pendingRoot).list('');
  return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();
}

const ACTIONS: ReadonlyArray<PendingChange['action']> = ['write', 'delete'];

export async function readPending(pendingRoot: string, runId: string): Promise<PendingRun> {
  const pending = pendingFolder(pendingRoot);
  relativeSegments(runId, '--run');
  const dir = join(pendingRoot, runId);
  const file = join(dir, MANIFEST);
  let manifest: { changes?: unknown };
  try {
    const bytes = await pending.read(`${runId}/${MANIFEST}`);
    if (bytes === undefined) throw new Error('it is missing');
    manifest = JSON.parse(bytes.toString('utf8')) as { changes?: unknown };
  } catch (error) {
    if (error instanceof GuardError) throw error;
    throw new GuardError(file, `cannot read the pending manifest (${(error as Error).message})`, `remove ${dir} and run the gate again`);
  }
  // The pending folder travels as a CI artifact: its manifest is untrusted input, checked entry by entry.
  if (!Array.isArray(manifest.changes)) throw new GuardError(file, '"changes" is not a list', `remove ${dir} and run the gate again`);
  const changes = manifest.changes.map((raw, i): PendingChange => {
    const entry = (raw ?? {}) as Record<string, unknown>;
    relativeSegments(entry.path, `${file}: changes[${i}].path`);
    if (!ACTIONS.includes(entry.action as PendingChange['action'])) throw new GuardError(file, `changes[${i}].action is ${JSON.stringify(entry.action)}, not "write" or "delete"`, `remove ${dir} and run the gate again`);
    return { path: entry.path as string, action: entry.action as PendingChange['action'], status: entry.status as FileStatus };
  });
  return { runId, dir, changes };
}

export async function proposedFile(run: PendingRun, change: PendingChange): Promise<string> {
  const bytes = await pendingFolder(join(run.dir, '..')).read(`${run.runId}/${FILES}/${change.path}`);
  if (bytes === undefined) throw new GuardError(join(run.dir, FILES, change.path), 'the proposed file is missing', `remove ${run.dir} and run the gate again`);
  return bytes.toString('utf8');
}

/** Keeps only `remaining` in the run; removes the run folder when nothing is left. */
export async function settlePending(run: PendingRun, remaining: PendingChange[]): Promise<void> {
  const pending = pendingFolder(join(run.dir, '..'));
  if (remaining.length === 0) {
    await pending.remove(run.runId);
    return;
  }
  await pending.write(`${run.runId}/${MANIFEST}`, JSON.stringify({ runId: run.runId, changes: remaining }, null, 2) + '\n');
}
