import { createHash } from 'node:crypto';
import type { TextDiff } from '../text/diff.js';
import type { FileStatus } from './store.js';

/**
 * One change shown once: snapshot files whose change is the same (the same hunks, or the same new file)
 * across runtimes and scenarios. A renderer change that touches the SDK of every scenario on three Python
 * runtimes is one group, read once; the terminal, the reports, JUnit and review all group through here.
 */
export interface ChangeGroup<T extends GroupedChange = GroupedChange> {
  /** 1-based, in the order of first appearance; reports link to `change-N`. */
  number: number;
  status: FileStatus;
  /** Paths below the snapshots folder, in the order they came. */
  paths: string[];
  members: T[];
  /** The first member's diff (changed files): every member's hunks are the same. */
  diff?: TextDiff;
}

/** What grouping needs of a change: the gate's FileVerdict and review's pending change both fit. */
export interface GroupedChange {
  path: string;
  status: FileStatus;
  diff?: TextDiff;
  proposed?: string;
}

/**
 * The identity of a change: the lines its hunks remove and add (not their context, line numbers or labels,
 * which differ between files that received the same edit), or a new file's name and text.
 */
export function changeKey(change: GroupedChange): string | undefined {
  const hash = (text: string) => createHash('sha256').update(text).digest('hex');
  if (change.status === 'changed' && change.diff)
    return `changed:${hash(change.diff.hunks.map((h) => h.lines.filter((l) => l[0] === '-' || l[0] === '+').join('\n')).join('\n@@\n'))}`;
  if (change.status === 'new' && change.proposed !== undefined)
    return `new:${basename(change.path)}:${hash(change.proposed)}`;
  return undefined;
}

/** The changes grouped, in order of first appearance; a change that cannot be compared stands alone. */
export function groupChanges<T extends GroupedChange>(changes: readonly T[]): Array<ChangeGroup<T>> {
  const groups: Array<ChangeGroup<T>> = [];
  const byKey = new Map<string, ChangeGroup<T>>();
  for (const change of changes) {
    const key = changeKey(change);
    const found = key === undefined ? undefined : byKey.get(key);
    if (found) {
      found.paths.push(change.path);
      found.members.push(change);
      continue;
    }
    const group: ChangeGroup<T> = {
      number: groups.length + 1,
      status: change.status,
      paths: [change.path],
      members: [change],
      ...(change.diff ? { diff: change.diff } : {}),
    };
    groups.push(group);
    if (key !== undefined) byKey.set(key, group);
  }
  return groups;
}

/** Every change of a run's pairs that a reviewer reads (changed and new files), grouped. */
export function runChangeGroups(pairs: ReadonlyArray<{ verdicts?: readonly GroupedChange[] }>): ChangeGroup[] {
  return groupChanges(
    pairs.flatMap((p) => (p.verdicts ?? []).filter((v) => v.status === 'changed' || v.status === 'new')),
  );
}

const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * The paths of a group, short: files of one name across a full scenario × runtime product read as
 * `{a,b}/{python,pyodide}/tools-sdk.py`; anything else is listed.
 */
export function compactPaths(paths: readonly string[]): string {
  return compactPathList(paths).join(', ');
}

function compactPathList(paths: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const path of paths) byName.set(basename(path), [...(byName.get(basename(path)) ?? []), path]);
  const parts: string[] = [];
  for (const [name, list] of byName) {
    const split = list.map((p) => p.split('/'));
    if (split.every((s) => s.length === 3)) {
      const scenarios = [...new Set(split.map((s) => s[0]!))];
      const runtimes = [...new Set(split.map((s) => s[1]!))];
      if (scenarios.length * runtimes.length === list.length && list.length > 1) {
        const set = (items: string[]) => (items.length === 1 ? items[0]! : `{${items.join(',')}}`);
        parts.push(`${set(scenarios)}/${set(runtimes)}/${name}`);
        continue;
      }
    }
    parts.push(...list);
  }
  return parts.map((p) => `snapshots/${p}`);
}

/**
 * The line said above a group's one diff: how many files share it, and which. `quote` shows each path (or
 * compacted set of paths), e.g. as a markdown code span, so a path with spaces or commas stays one piece.
 */
export function groupHeading(
  group: Pick<ChangeGroup, 'paths' | 'status'>,
  quote: (path: string) => string = (path) => path,
): string {
  if (group.paths.length === 1) return `${group.status}: ${quote(`snapshots/${group.paths[0]}`)}`;
  return `the same ${group.status === 'new' ? 'new file' : 'change'} in ${group.paths.length} files: ${compactPathList(group.paths).map(quote).join(', ')}`;
}
