import { renderDiff, type TextDiff } from '../text/diff.js';
import { type ChangeGroup, groupChanges, groupHeading } from './change-groups.js';
import { type PendingChange, type PendingRun, proposedFile } from './pending.js';
import { readCommitted, snapshotDiff } from './store.js';

/** One pending proposal with what review shows of it: its run, and its diff against the committed file. */
export interface ReviewItem {
  path: string;
  status: PendingChange['status'];
  run: PendingRun;
  change: PendingChange;
  /** From the committed file (empty for a new one) to the proposal (writes). */
  diff?: TextDiff;
  /** The proposed text (writes). */
  proposed?: string;
  /** Why the proposal cannot be read (its file is missing): thrown when review reaches it, not before. */
  unreadable?: Error;
}

/** Proposals with the same change (the same hunks, or the same new file): review asks once for all of them. */
export interface ReviewGroup {
  /** 1-based, in the order review meets them. */
  number: number;
  items: ReviewItem[];
  /** The line above the group's one diff: the file, or "the same change in N files: …". */
  heading: string;
  /** What the reviewer reads for the whole group. */
  show(color: boolean): string;
}

/**
 * The pending proposals of `items` grouped by their change, in order of first appearance. A deletion, an
 * unreadable diff or a change no other proposal shares is a group of one, so one decision per group is
 * exactly one decision per file where nothing repeats.
 */
export async function reviewGroups(
  snapshotsDir: string,
  entries: ReadonlyArray<{ run: PendingRun; change: PendingChange }>,
): Promise<ReviewGroup[]> {
  const items: ReviewItem[] = [];
  for (const { run, change } of entries) items.push(await reviewItem(snapshotsDir, run, change));
  return groupChanges(items).map((group) => ({
    number: group.number,
    items: group.members,
    heading: heading(group),
    show: (color) => shown(group, color),
  }));
}

async function reviewItem(snapshotsDir: string, run: PendingRun, change: PendingChange): Promise<ReviewItem> {
  const base = { path: change.path, status: change.status, run, change };
  if (change.action === 'delete') return base;
  let proposed: string;
  try {
    proposed = await proposedFile(run, change);
  } catch (error) {
    return { ...base, unreadable: error as Error };
  }
  const committed = await readCommitted(snapshotsDir, change.path);
  // A write over nothing is a new file whatever the manifest says: it groups by its name and text.
  const status = committed === undefined ? 'new' : change.status === 'new' ? 'changed' : change.status;
  return { ...base, status, proposed, diff: snapshotDiff(change.path, committed ?? '', proposed) };
}

function heading(group: ChangeGroup<ReviewItem>): string {
  const [first] = group.members;
  if (first!.change.action === 'delete') return `snapshots/${first!.path}: obsolete, proposed for removal`;
  return groupHeading(group);
}

function shown(group: ChangeGroup<ReviewItem>, color: boolean): string {
  const first = group.members[0]!;
  if (first.change.action === 'delete' || !first.diff) return heading(group);
  const body = renderDiff(first.diff!, color);
  return group.members.length > 1 ? `${heading(group)}\n${body}` : body;
}
