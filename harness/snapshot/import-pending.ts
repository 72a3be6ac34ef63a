import { execFile } from 'node:child_process';
import { lstat, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import { GuardError } from '../guarded/folder.js';
import { pendingRunIds, proposedFile, readPending, writePending, type PendingChange } from './pending.js';

const exec = promisify(execFile);

/**
 * Takes the pending proposals of another machine (the CI's `concord-pending` artifact: a pending folder,
 * one run folder, or a `.tgz` of either) into this project's pending folder, so `concord review` applies
 * them here. The artifact is untrusted: every manifest is checked as review checks it, links are never
 * followed, and each proposal keeps the fingerprint of the snapshot it was made against, so one made
 * against a different snapshot is refused by review, named. Returns the run ids taken in.
 */
export async function importPending(source: string, pendingRoot: string): Promise<string[]> {
  const path = resolve(source);
  const stats = await lstat(path).catch(() => undefined);
  if (!stats) throw new GuardError(path, 'does not exist', 'name the downloaded pending artifact: a folder or a .tgz');
  if (stats.isSymbolicLink()) throw new GuardError(path, 'is a symbolic link', 'name the artifact itself; concord does not follow links');
  if (stats.isFile()) {
    if (!/\.(tgz|tar\.gz)$/.test(path)) throw new GuardError(path, 'is neither a folder nor a .tgz', 'unpack the artifact, or name its .tgz');
    const unpacked = await mkdtemp(resolve(tmpdir(), 'concord-import-'));
    try {
      // GNU tar keeps every member inside the target (it refuses `..` and strips leading `/`); links inside are
      // refused below, when the runs are read through the guarded door.
      await exec('tar', ['-xzf', path, '-C', unpacked, '--no-same-owner', '--no-same-permissions']).catch((error: Error) => {
        throw new GuardError(path, `cannot be unpacked (${error.message.split('\n')[0]})`, 'download the artifact again');
      });
      return await importFolder(unpacked, pendingRoot, path);
    } finally {
      await rm(unpacked, { recursive: true, force: true });
    }
  }
  return importFolder(path, pendingRoot, path);
}

async function importFolder(folder: string, pendingRoot: string, named: string): Promise<string[]> {
  // One run folder (it holds a manifest) or a pending folder of runs.
  const single = await lstat(resolve(folder, 'manifest.json')).then((s) => s.isFile()).catch(() => false);
  const root = single ? dirname(folder) : folder;
  const runIds = single ? [basename(folder)] : await pendingRunIds(root);
  if (runIds.length === 0) throw new GuardError(named, 'holds no pending run (no manifest.json)', 'name the concord-pending artifact the gate uploaded');
  for (const runId of runIds) {
    const run = await readPending(root, runId);
    const proposals: Array<PendingChange & { proposed?: string }> = [];
    for (const change of run.changes) proposals.push(change.action === 'write' ? { ...change, proposed: await proposedFile(run, change) } : change);
    await writePending(pendingRoot, runId, proposals);
  }
  return runIds;
}
