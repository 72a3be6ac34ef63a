import { appendFile, stat } from 'node:fs/promises';
import { scrubSecrets } from '../guarded/secret.js';
import { runChangeGroups } from '../snapshot/change-groups.js';
import { shortLines } from '../text/short-line.js';
import { codeSpan, plain } from './github-markdown.js';
import { changesSection, coverageSection, matrixSection } from './markdown.js';
import type { PairResult, ReportInput } from './outcome.js';
import { isFailing } from './outcome.js';
import { pairGroups } from './pair-groups.js';
import { sdkCost, sdkCostMarkdown } from './sdk-cost.js';
import { skippedCheckLines, skippedCounts } from './summary.js';

/** Lines of each failure's diff shown in the summary; the HTML report and the artifact hold the rest. */
export const DIFF_LINES = 20;
/** Distinct changes whose diff the summary shows; the rest are counted and left to the HTML report. */
export const SUMMARY_CHANGES = 5;

const MARK: Readonly<Record<string, string>> = {
  pass: '✅ pass',
  updated: '🔄 updated',
  mismatch: '❌ mismatch',
  unstable: '〰️ unstable',
  failed: '❌ failed',
  skipped: '⏭️ skipped',
};

/**
 * The Markdown a pull request's checks page shows (`GITHUB_STEP_SUMMARY`): the scenario × runtime matrix,
 * each failure with the first lines of its diff, the stub-validity matrix folded, and the command that
 * applies the proposals locally.
 */
export function stepSummary(
  input: ReportInput & { pairs: readonly PairResult[] },
  verdict: { ok: boolean; obsolete: readonly string[]; pendingArtifact?: string },
): string {
  const runtimes = [...new Set(input.pairs.map((p) => p.runtime))];
  const scenarios = [...new Set(input.pairs.map((p) => p.scenario))];
  const skipped = skippedCounts(input.pairs);
  const head = !verdict.ok
    ? '❌ FAILED'
    : skipped.length > 0
      ? `⚠️ everything that ran agrees (skipped: ${skipped.join(', ')})`
      : '✅ everything agrees';
  const lines = [`## concord gate: ${head}`, ''];
  lines.push(
    `| scenario | ${runtimes.map(plain).join(' | ')} |`,
    `| --- | ${runtimes.map(() => ':---:').join(' | ')} |`,
  );
  for (const scenario of scenarios) {
    const cells = runtimes.map((runtime) => {
      const pair = input.pairs.find((p) => p.scenario === scenario && p.runtime === runtime);
      return pair ? (Object.hasOwn(MARK, pair.status) ? MARK[pair.status]! : plain(pair.status)) : '';
    });
    lines.push(`| ${plain(scenario)} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  // Each failing pair in one line naming its changes; each distinct change once below.
  const judged = input.pairs.filter((p) => p.status !== 'updated');
  const groupOf = new Map(runChangeGroups(judged).flatMap((g) => g.paths.map((path) => [path, g.number] as const)));
  const failing = input.pairs.filter((p) => isFailing(p.status));
  if (failing.length > 0) lines.push('### Failing pairs', '');
  // Pairs that fail alike (the same status, the same changes, the same reason) are one line.
  const lineOf = (pair: (typeof failing)[number]) => {
    const changes = (pair.verdicts ?? [])
      .filter((v) => groupOf.has(v.path))
      .map((v) => `${codeSpan(v.path.slice(v.path.lastIndexOf('/') + 1))} change ${groupOf.get(v.path)}`);
    const reason = pair.reason ? ` — ${plain(shortLines(pair.reason)[0]!)}` : '';
    return `${plain(pair.status)}${changes.length > 0 ? ` (${changes.join(', ')})` : ''}${reason}`;
  };
  for (const { pairs, names } of pairGroups(failing, lineOf)) lines.push(`- **${plain(names)}**: ${lineOf(pairs[0]!)}`);
  if (failing.length > 0) lines.push('');
  const skips = skippedCheckLines(input.pairs);
  if (skips.length > 0) lines.push(...skips.map((line) => `- ${plain(line)}`), '');
  lines.push(
    ...changesSection(
      { pairs: judged },
      {
        heading: '### Changes',
        maxLines: DIFF_LINES,
        maxChanges: SUMMARY_CHANGES,
        rest: 'the HTML report (.concord/report.html)',
      },
    ),
  );
  lines.push(...sdkCostMarkdown(sdkCost(input.pairs), '### SDK cost'));
  lines.push(...coverageSection(input, '### Tool coverage'));
  for (const folder of verdict.obsolete) lines.push(`- obsolete snapshot folder: ${codeSpan(`snapshots/${folder}`)}`);
  if (verdict.obsolete.length > 0) lines.push('');
  const [, ...stubs] = matrixSection(input);
  lines.push('<details><summary>Stub validity</summary>', '', ...stubs, '</details>', '');
  if (verdict.pendingArtifact) {
    lines.push(
      'To accept the proposed snapshot changes locally, download the pending artifact and run:',
      '',
      '```sh',
      `concord review --from ${verdict.pendingArtifact}`,
      '```',
      '',
    );
  }
  return lines.join('\n') + '\n';
}

/** The most GitHub takes of one step's summary file: past it, the runner drops all of it and shows an error. */
export const STEP_SUMMARY_MAX_BYTES = 1024 * 1024;

const CUT_NOTE =
  '\n… the summary was cut here: GitHub shows at most 1 MiB of a step summary. The HTML report (.concord/report.html) holds all of it.\n';

/**
 * `text` cut at a line so that it fits in `room` bytes with a note saying so, or whole when it fits. A summary
 * past the limit would not be cut by GitHub but dropped, verdict included.
 */
export function fitSummary(text: string, room: number): string {
  if (Buffer.byteLength(text) <= room) return text;
  const noteBytes = Buffer.byteLength(CUT_NOTE);
  if (room < noteBytes) return '';
  const bytes = Buffer.from(text);
  // The last line break that leaves room for the note (a line break never falls inside a UTF-8 sequence).
  const keep = room - noteBytes;
  const end = keep > 0 ? bytes.lastIndexOf(0x0a, keep - 1) : -1;
  return bytes.subarray(0, end + 1).toString() + CUT_NOTE;
}

/**
 * Appends the summary when the CI asks for one (GitHub Actions sets `GITHUB_STEP_SUMMARY`), within what the
 * step's file has room for.
 */
export async function appendStepSummary(
  summary: string | (() => string),
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return undefined;
  // Made only where a job reads it: a run with a large diff spends a second on a summary nobody reads.
  const text = typeof summary === 'string' ? summary : summary();
  const used = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  await appendFile(file, fitSummary(scrubSecrets(text), Math.max(0, STEP_SUMMARY_MAX_BYTES - used)));
  return file;
}
