import { join } from 'node:path';
import { writeFileAtomic } from '../snapshot/atomic.js';
import { renderHtmlReport } from './html.js';
import { renderReport, type ReportInput } from './markdown.js';

/** Where the report goes below the package root. */
export function reportPath(root: string): string {
  return join(root, '.concord', 'report.md');
}

export function htmlReportPath(root: string): string {
  return join(root, '.concord', 'report.html');
}

/**
 * Writes `<root>/.concord/report.md` and `report.html` atomically (a reader sees the previous report or this
 * one, never part) and returns the Markdown report's path.
 */
export async function writeReport(root: string, input: ReportInput): Promise<string> {
  const file = reportPath(root);
  await writeFileAtomic(file, renderReport(input));
  await writeFileAtomic(htmlReportPath(root), renderHtmlReport(input));
  return file;
}
