import { join } from 'node:path';
import { writeFileAtomic } from '../snapshot/atomic.js';
import { renderReport, type ReportInput } from './markdown.js';

/** Where the report goes below the package root. */
export function reportPath(root: string): string {
  return join(root, '.concord', 'report.md');
}

/**
 * Writes `<root>/.concord/report.md` atomically (a reader sees the previous report or this one, never part)
 * and returns its path.
 */
export async function writeReport(root: string, input: ReportInput): Promise<string> {
  const file = reportPath(root);
  await writeFileAtomic(file, renderReport(input));
  return file;
}
