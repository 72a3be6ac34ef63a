import { GuardError } from '../guarded/folder.js';
import { type PendingChange, type PendingRun, pendingRunIds, readPending, settleChange } from './pending.js';
import { type ReviewGroup, reviewGroups } from './review-groups.js';
import { applyVerdict, snapshotFingerprint } from './store.js';

export type Decision = 'accept' | 'reject' | 'skip';

export interface ReviewOptions {
  snapshotsDir: string;
  pendingRoot: string;
  /** Only this run; default every pending run, oldest first. */
  runId?: string;
  /**
   * Decides each group of identical changes (`change` is its first, `diff` what the reviewer reads, the
   * decision applies to every file of `group`). `quit` stops the review: every change not yet decided stays
   * pending. On a terminal this is `terminalKeys` (review-keys.ts), which also shows each change.
   */
  decide: (change: PendingChange, diff: string, group: ReviewGroup) => Promise<Decision | 'quit'>;
  color: boolean;
  out(line: string): void;
}

export interface ReviewSummary {
  accepted: number;
  rejected: number;
  skipped: number;
  /** Proposals left undecided by quitting. */
  left: number;
  /** Proposals made against a snapshot that has changed since: refused, left pending. */
  stale: string[];
  text: string;
}

/** One pending proposal as `review --list` shows it. */
export interface PendingEntry {
  run: string;
  path: string;
  action: PendingChange['action'];
  status: PendingChange['status'];
  /** The snapshot changed since the proposal was made: accepting it is refused. */
  stale: boolean;
}

/** The runs to look at: `runId` alone (which must exist), or all of them. */
async function runsToReview(pendingRoot: string, runId: string | undefined): Promise<string[]> {
  const ids = await pendingRunIds(pendingRoot);
  if (runId === undefined) return ids;
  if (!ids.includes(runId))
    throw new GuardError(
      pendingRoot,
      `no pending run ${JSON.stringify(runId)}`,
      `pending runs: ${ids.join(', ') || 'none'}; list them with \`concord review --list\``,
    );
  return [runId];
}

async function isStale(snapshotsDir: string, change: PendingChange): Promise<boolean> {
  return (await snapshotFingerprint(snapshotsDir, change.path)) !== change.base;
}

/** Every pending proposal, oldest run first. */
export async function listPending(
  options: Pick<ReviewOptions, 'snapshotsDir' | 'pendingRoot' | 'runId'>,
): Promise<PendingEntry[]> {
  const entries: PendingEntry[] = [];
  for (const id of await runsToReview(options.pendingRoot, options.runId)) {
    const run = await readPending(options.pendingRoot, id);
    for (const c of run.changes)
      entries.push({
        run: id,
        path: c.path,
        action: c.action,
        status: c.status,
        stale: await isStale(options.snapshotsDir, c),
      });
  }
  return entries;
}

/**
 * Walks the pending proposals group by group: proposals with the same change (the same hunks in several
 * files, or the same new file) are shown once and decided once. Each decision takes effect at once: an
 * accepted proposal is written (atomically) and leaves the pending folder, a rejected one just leaves, a
 * skipped one stays. A proposal whose snapshot changed since it was made (before review began, or while its
 * change was on screen) is refused when decided and stays, the newer snapshot untouched. Stopping at
 * any point (an error, Ctrl-C) leaves every undecided proposal pending.
 */
export async function reviewPending(options: ReviewOptions): Promise<ReviewSummary> {
  const ids = await runsToReview(options.pendingRoot, options.runId);
  const summary: ReviewSummary = { accepted: 0, rejected: 0, skipped: 0, left: 0, stale: [], text: '' };
  if (ids.length === 0) return { ...summary, text: 'nothing to review: no pending changes' };
  const fresh: Array<{ run: PendingRun; change: PendingChange }> = [];
  // Stale now, or by the time it is decided (a gate -u while the reviewer reads): said, left pending, not applied.
  const staleNow = async (run: PendingRun, change: PendingChange): Promise<boolean> => {
    if (!(await isStale(options.snapshotsDir, change))) return false;
    summary.stale.push(change.path);
    options.out(
      `stale: snapshots/${change.path} changed since run ${run.runId} proposed this; not applied; run the gate again, it replaces or drops this proposal`,
    );
    return true;
  };
  for (const id of ids) {
    const run = await readPending(options.pendingRoot, id);
    for (const change of run.changes) if (!(await staleNow(run, change))) fresh.push({ run, change });
  }
  const groups = await reviewGroups(options.snapshotsDir, fresh);
  for (const [index, group] of groups.entries()) {
    for (const item of group.items) if (item.unreadable) throw item.unreadable;
    const decision = await options.decide(group.items[0]!.change, group.show(false), group);
    if (decision === 'quit') {
      summary.left = groups.slice(index).reduce((sum, rest) => sum + rest.items.length, 0);
      break;
    }
    if (decision === 'skip') {
      summary.skipped += group.items.length;
      continue;
    }
    for (const { run, change, proposed } of group.items) {
      if (await staleNow(run, change)) continue;
      if (decision === 'accept') {
        await applyVerdict(options.snapshotsDir, {
          path: change.path,
          status: change.status,
          ...(proposed !== undefined ? { proposed } : {}),
        });
        summary.accepted++;
      } else {
        summary.rejected++;
      }
      await settleChange(options.pendingRoot, run, change);
      options.out(`${decision === 'accept' ? 'accepted' : 'rejected'}: snapshots/${change.path}`);
    }
  }
  const scope = options.runId ? `review of ${options.runId}` : 'review';
  const stale = summary.stale.length > 0 ? `, ${summary.stale.length} stale (left pending)` : '';
  const left = summary.left > 0 ? `, ${summary.left} left pending (quit)` : '';
  return {
    ...summary,
    text: `${scope}: ${summary.accepted} accepted, ${summary.rejected} rejected, ${summary.skipped} skipped${left}${stale}`,
  };
}
