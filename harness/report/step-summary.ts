import { appendFile } from 'node:fs/promises';
import type { PairResult } from '../gate/report.js';
import { renderDiff } from '../text/diff.js';
import { matrixSection, type ReportInput } from './markdown.js';

/** Lines of each failure's diff shown in the summary; the HTML report and the artifact hold the rest. */
const DIFF_LINES = 20;

const MARK: Readonly<Record<string, string>> = { pass: '✅ pass', updated: '🔄 updated', mismatch: '❌ mismatch', failed: '❌ failed', skipped: '⏭️ skipped' };

/**
 * The Markdown a pull request's checks page shows (`GITHUB_STEP_SUMMARY`): the scenario × runtime matrix,
 * each failure with the first lines of its diff, the stub-validity matrix folded, and the command that
 * applies the proposals locally.
 */
export function stepSummary(input: ReportInput & { pairs: readonly PairResult[] }, verdict: { ok: boolean; obsolete: readonly string[]; pendingArtifact?: string }): string {
  const runtimes = [...new Set(input.pairs.map((p) => p.runtime))];
  const scenarios = [...new Set(input.pairs.map((p) => p.scenario))];
  const lines = [`## concord gate: ${verdict.ok ? '✅ everything agrees' : '❌ FAILED'}`, ''];
  lines.push(`| scenario | ${runtimes.join(' | ')} |`, `| --- | ${runtimes.map(() => ':---:').join(' | ')} |`);
  for (const scenario of scenarios) {
    const cells = runtimes.map((runtime) => {
      const pair = input.pairs.find((p) => p.scenario === scenario && p.runtime === runtime);
      return pair ? (MARK[pair.status] ?? pair.status) : '';
    });
    lines.push(`| ${scenario} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  for (const pair of input.pairs.filter((p) => p.status === 'mismatch' || p.status === 'failed')) {
    lines.push(`### ${pair.scenario} × ${pair.runtime}: ${pair.status}`, '');
    const shown = [pair.reason ?? '', ...(pair.verdicts ?? []).filter((v) => v.diff).map((v) => renderDiff(v.diff!, false))].filter(Boolean).join('\n').split('\n');
    const fence = '`'.repeat(Math.max(3, ...shown.map((l) => (l.match(/`+/g) ?? []).reduce((m, run) => Math.max(m, run.length + 1), 0))));
    lines.push(`${fence}diff`, ...shown.slice(0, DIFF_LINES), ...(shown.length > DIFF_LINES ? [`… ${shown.length - DIFF_LINES} more line(s) in the HTML report`] : []), fence, '');
  }
  for (const folder of verdict.obsolete) lines.push(`- obsolete snapshot folder: \`snapshots/${folder}\``);
  if (verdict.obsolete.length > 0) lines.push('');
  const [, ...stubs] = matrixSection(input);
  lines.push('<details><summary>Stub validity</summary>', '', ...stubs, '</details>', '');
  if (verdict.pendingArtifact) {
    lines.push('To accept the proposed snapshot changes locally, download the pending artifact and run:', '', '```sh', `concord review --from ${verdict.pendingArtifact}`, '```', '');
  }
  return lines.join('\n') + '\n';
}

/** Appends the summary when the CI asks for one (GitHub Actions sets `GITHUB_STEP_SUMMARY`). */
export async function appendStepSummary(text: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return undefined;
  await appendFile(file, text);
  return file;
}
