import { createInterface } from 'node:readline/promises';
import { renderDiff } from '../text/diff.js';
import { pendingRunIds, proposedFile, readPending, settlePending, type PendingChange } from './pending.js';
import { applyVerdict, snapshotDiff, snapshotFolder } from './store.js';

export type Decision = 'accept' | 'reject' | 'skip';

export interface ReviewOptions {
  snapshotsDir: string;
  pendingRoot: string;
  /** The run to review; default the newest. */
  runId?: string;
  /** Decides each change; absent means ask on the terminal. */
  decide?: (change: PendingChange, diff: string) => Promise<Decision>;
  color: boolean;
  out(line: string): void;
}

/** Walks the proposed changes of one run; accepted ones are written atomically, rejected ones dropped. */
export async function reviewPending(options: ReviewOptions): Promise<string> {
  const ids = await pendingRunIds(options.pendingRoot);
  const runId = options.runId ?? ids[ids.length - 1];
  if (runId === undefined) return 'nothing to review: no pending changes';
  if (!ids.includes(runId)) throw new Error(`no pending run ${runId} in ${options.pendingRoot} (pending: ${ids.join(', ') || 'none'})`);
  const run = await readPending(options.pendingRoot, runId);
  const ask = options.decide ?? terminalPrompt();
  const remaining: PendingChange[] = [];
  const tally = { accept: 0, reject: 0, skip: 0 };
  try {
    for (const change of run.changes) {
      const shown = await describe(options.snapshotsDir, run, change);
      if (!options.decide) options.out(shown(options.color));
      const decision = await ask(change, shown(false));
      tally[decision]++;
      if (decision === 'skip') {
        remaining.push(change);
        continue;
      }
      if (decision === 'accept') {
        const proposed = change.action === 'write' ? await proposedFile(run, change) : undefined;
        await applyVerdict(options.snapshotsDir, { path: change.path, status: change.status, ...(proposed !== undefined ? { proposed } : {}) });
      }
      options.out(`${decision === 'accept' ? 'accepted' : 'rejected'}: snapshots/${change.path}`);
    }
  } finally {
    await settlePending(run, remaining);
  }
  return `review of ${runId}: ${tally.accept} accepted, ${tally.reject} rejected, ${tally.skip} skipped`;
}

/** What a change does, rendered with or without color. */
async function describe(snapshotsDir: string, run: Awaited<ReturnType<typeof readPending>>, change: PendingChange): Promise<(color: boolean) => string> {
  if (change.action === 'delete') return () => `snapshots/${change.path}: obsolete, proposed for removal`;
  const committed = (await snapshotFolder(snapshotsDir).read(change.path))?.toString('utf8') ?? '';
  const diff = snapshotDiff(change.path, committed, await proposedFile(run, change));
  return (color) => renderDiff(diff, color);
}

function terminalPrompt(): (change: PendingChange) => Promise<Decision> {
  return async (change) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    try {
      for (;;) {
        const answer = (await rl.question(`snapshots/${change.path} (${change.status}): [a]ccept, [r]eject, [s]kip? `)).trim().toLowerCase();
        if (answer === 'a' || answer === 'accept') return 'accept';
        if (answer === 'r' || answer === 'reject') return 'reject';
        if (answer === 's' || answer === 'skip' || answer === '') return 'skip';
      }
    } finally {
      rl.close();
    }
  };
}
