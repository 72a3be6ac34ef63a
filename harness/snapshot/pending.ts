import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
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

/** What the CI recipes call the uploaded `.concord/pending/` folder; `concord review --from` takes it back. */
export const PENDING_ARTIFACT = 'concord-pending';

const MANIFEST = 'manifest.json';
const FILES = 'files';

/** A fresh run id: sortable by time, unique across concurrent runs. */
export function newRunId(now = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z') + '-' + randomBytes(3).toString('hex');
}

/** Writes the proposals of one gate run to `<pendingRoot>/<run-id>/` (a CI artifact, and the input of review). */
export async function writePending(pendingRoot: string, runId: string, proposals: ReadonlyArray<PendingChange & { proposed?: string }>): Promise<string> {
  const dir = join(pendingRoot, runId);
  for (const p of proposals) if (p.action === 'write' && p.proposed !== undefined) await writeFileAtomic(join(dir, FILES, p.path), p.proposed);
  const changes = proposals.map(({ path, action, status }) => ({ path, action, status }));
  await writeFileAtomic(join(dir, MANIFEST), JSON.stringify({ runId, changes }, null, 2) + '\n');
  return dir;
}

/** The pending runs, oldest first. */
export async function pendingRunIds(pendingRoot: string): Promise<string[]> {
  const names = await readdir(pendingRoot).catch(() => [] as string[]);
  return names.filter((n) => !n.startsWith('.')).sort();
}

export async function readPending(pendingRoot: string, runId: string): Promise<PendingRun> {
  const dir = join(pendingRoot, runId);
  let manifest: { changes?: PendingChange[] };
  try {
    manifest = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as { changes?: PendingChange[] };
  } catch (error) {
    throw new Error(`${join(dir, MANIFEST)}: cannot read the pending manifest (${(error as Error).message}); remove ${dir} and run the gate again`);
  }
  return { runId, dir, changes: manifest.changes ?? [] };
}

export function proposedFile(run: PendingRun, change: PendingChange): Promise<string> {
  return readFile(join(run.dir, FILES, change.path), 'utf8');
}

/** Keeps only `remaining` in the run; removes the run folder when nothing is left. */
export async function settlePending(run: PendingRun, remaining: PendingChange[]): Promise<void> {
  if (remaining.length === 0) {
    await rm(run.dir, { recursive: true, force: true });
    return;
  }
  await writeFileAtomic(join(run.dir, MANIFEST), JSON.stringify({ runId: run.runId, changes: remaining }, null, 2) + '\n');
}
