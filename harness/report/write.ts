import { lstat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../guarded/atomic.js';
import { GuardError, GuardedFolder } from '../guarded/folder.js';
import { inside } from '../guarded/inside.js';
import { renderHtmlReport } from './html.js';
import { renderReport } from './markdown.js';
import type { ReportInput } from './outcome.js';

/** Where the report goes below the package root. */
export function reportPath(root: string): string {
  return join(root, '.concord', 'report.md');
}

export function htmlReportPath(root: string): string {
  return join(root, '.concord', 'report.html');
}

/** The guarded door to `<root>/.concord/`. */
export function concordFolder(root: string): GuardedFolder {
  return new GuardedFolder(join(root, '.concord'), '.concord');
}

/**
 * Writes `<root>/.concord/report.md` and `report.html` atomically (a reader sees the previous report or this
 * one, never part) and returns the Markdown report's path.
 */
export async function writeReport(root: string, input: ReportInput): Promise<string> {
  const concord = concordFolder(root);
  await concord.write('report.md', renderReport(input));
  await concord.write('report.html', renderHtmlReport(input));
  return reportPath(root);
}

/**
 * Where the JUnit file goes, checked before a run: below `.concord/` its guarded door; elsewhere (a path
 * the user named) a folder or a link in its place is refused.
 */
export async function junitTarget(
  root: string,
  file: string | undefined,
): Promise<{ path: string; write(xml: string): Promise<void> }> {
  const concord = concordFolder(root);
  const path = resolve(file ?? join(concord.dir, 'junit.xml'));
  if (path !== concord.dir && inside(path, concord.dir)) {
    await concord.check();
    return { path, write: (xml) => concord.write(relative(concord.dir, path).split(sep).join('/'), xml) };
  }
  const stats = await lstat(path).catch(() => undefined);
  if (stats?.isSymbolicLink())
    throw new GuardError(
      path,
      '--junit-file names a symbolic link',
      'name a regular file; concord does not write through links',
    );
  if (stats && !stats.isFile())
    throw new GuardError(
      path,
      '--junit-file names a folder, not a file',
      `name a file, e.g. --junit-file ${join(path, 'junit.xml')}`,
    );
  return { path, write: (xml) => writeFileAtomic(path, xml) };
}
