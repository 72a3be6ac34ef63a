import { COVERAGE_HINT, coverageFails, coverageSentences, type ToolCoverage } from '../checks/tool-coverage.js';
import type { Finding } from '../checks/types.js';
import { RUNTIME_NAMES, type RuntimeName } from '../runtime-names.js';
import { type ChangeGroup, groupHeading, runChangeGroups } from '../snapshot/change-groups.js';
import { type UpdateMode, writesEverything } from '../snapshot/decide.js';
import { PENDING_ARTIFACT } from '../snapshot/pending.js';
import { renderDiff } from '../text/diff.js';
import { shortLines } from '../text/short-line.js';
import { isFailing, type PairResult } from './outcome.js';
import { pairGroups } from './pair-groups.js';
import { capLines, ms, REASON_LINES, summaryTable } from './progress.js';
import { sdkCost, sdkCostLines } from './sdk-cost.js';

/**
 * Exit 0 only when every pair agrees, no obsolete folder is left, no run finding is an error, and no tool is
 * uncalled under `coverage: { uncalled: error }`.
 */
export function gateVerdict(
  results: readonly PairResult[],
  obsolete: readonly string[],
  run: { update: UpdateMode; ci: boolean },
  runFindings: readonly Finding[],
  coverage?: ToolCoverage,
): boolean {
  return (
    !coverageFails(coverage) &&
    results.every((r) => r.status === 'pass' || r.status === 'updated' || r.status === 'skipped') &&
    (obsolete.length === 0 || writesEverything(run)) &&
    !runFindings.some((f) => f.severity === 'error')
  );
}

export interface Summary {
  results: readonly PairResult[];
  obsolete: readonly string[];
  /**
   * The run wrote every difference in place (`writesEverything`): obsolete folders are removed, diffs are not shown.
   */
  inPlace: boolean;
  pendingDir: string | undefined;
  ok: boolean;
  runFindings: readonly Finding[];
  reportFile: string;
  /** CI is set: the proposals are reviewed on another machine, from the uploaded artifact. */
  ci?: boolean;
  coverage?: ToolCoverage;
  /** Why the SDK was not measured in tokens, when it was not. */
  sdkTokensMissing?: string | undefined;
  /** Runtimes only there by default that cannot run here, left out of the run. */
  leftOut?: readonly RuntimeName[] | undefined;
}

/** The end of a gate (or merge) run on the console: the matrix, the diffs, the totals and the verdict. */
export function printSummary({ out, color }: { out(line: string): void; color: boolean }, summary: Summary): void {
  const { results, obsolete, inPlace, pendingDir, ok, runFindings, reportFile, ci, coverage, sdkTokensMissing } =
    summary;
  out('');
  const runtimes = RUNTIME_NAMES.filter((r) => results.some((x) => x.runtime === r));
  if (results.length > 0) out(summaryTable(results, runtimes, color));
  for (const folder of obsolete)
    out(`obsolete snapshot folder: snapshots/${folder} (no scenario declares it)${inPlace ? ' — removed' : ''}`);
  for (const r of results) {
    for (const v of r.verdicts) {
      if (v.status === 'garbage') out(`\n${v.reason}`);
      if (v.status === 'obsolete' && !inPlace) out(`obsolete snapshot file: snapshots/${v.path}`);
    }
  }
  if (!inPlace) for (const line of verdictLines(results, reportFile.replace(/\.md$/, '.html'), color)) out(line);
  const total = { assembly: 0, boot: 0, model: 0, runtime: 0, checks: 0 };
  for (const r of results) for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] += r.times[k] ?? 0;
  const cost = sdkCost(results);
  if (cost) for (const line of sdkCostLines(cost)) out(line);
  else if (sdkTokensMissing !== undefined) out(`\nSDK cost: not measured: ${sdkTokensMissing}`);
  for (const f of runFindings) out(`\n${f.severity} ${f.check}: ${f.message}`);
  const uncalled = coverageSentences(coverage);
  if (uncalled.length > 0) {
    out('');
    for (const sentence of uncalled)
      out(`${coverage!.level === 'error' ? 'error' : 'warning'} tool-coverage: ${sentence}`);
    out(`  ${COVERAGE_HINT}`);
  }
  const count = (s: string) => results.filter((r) => r.status === s).length;
  out('');
  out(
    `time: assembly ${ms(total.assembly)}${Math.round(total.boot) > 0 ? ` · boot ${ms(total.boot)}` : ''} · model ${ms(total.model)} · runtime ${ms(total.runtime)} · checks ${ms(total.checks)}`,
  );
  out(
    `${results.length} run(s): ${count('pass')} pass, ${count('updated')} updated, ${count('mismatch')} mismatch, ${count('unstable')} unstable, ${count('failed')} failed, ${count('skipped')} skipped; ${obsolete.length} obsolete folder(s)`,
  );
  if (summary.leftOut?.length) out(leftOutLine(results, summary.leftOut));
  for (const line of skippedRuntimeLines(results)) out(line);
  for (const line of skippedCheckLines(results)) out(line);
  if (pendingDir) {
    out(
      ci
        ? `proposed changes: ${pendingDir} — upload it as the ${PENDING_ARTIFACT} artifact; on your machine \`concord review --from ${PENDING_ARTIFACT}\` accepts or rejects them`
        : `proposed changes: ${pendingDir} — accept or reject them with \`concord review\``,
    );
  }
  out(`report: ${reportFile} (the stub-validity matrix, the probe's verdict and every finding)`);
  out(ok ? `gate: everything agrees${notEverythingRan(results)}` : 'gate: FAILED');
}

/**
 * What ran, and the runtimes left out because nothing named them and they cannot run here: not a skip (nothing
 * asked for them), said once so that adding one to `runtimes:` is the known way to have it checked.
 */
function leftOutLine(results: readonly PairResult[], leftOut: readonly RuntimeName[]): string {
  const ran = RUNTIME_NAMES.filter((r) => results.some((x) => x.runtime === r && x.status !== 'skipped'));
  const them = leftOut.join(', ');
  const on = ran.length > 0 ? `ran on ${ran.join(', ')}; ` : '';
  return `${on}${them} cannot run here and no runtimes: list names ${leftOut.length > 1 ? 'them' : 'it'}, so ${leftOut.length > 1 ? 'they were' : 'it was'} left out`;
}

/** Skipped pairs and checks that did not run, counted; empty when everything ran. */
export function skippedCounts(results: readonly PairResult[]): string[] {
  const pairs = results.filter((r) => r.status === 'skipped').length;
  const checks = results.reduce((n, r) => n + r.findings.filter((f) => f.skipped !== undefined).length, 0);
  return [pairs > 0 ? `${pairs} pair(s)` : '', checks > 0 ? `${checks} check(s)` : ''].filter(Boolean);
}

/**
 * `, but not everything ran (skipped: …)` when a pair or a check was skipped: such a run is never reported all green.
 */
function notEverythingRan(results: readonly PairResult[]): string {
  const skipped = skippedCounts(results);
  return skipped.length === 0
    ? ''
    : `, but not everything ran (skipped: ${skipped.join(', ')}; see the skipped lines above)`;
}

/** Each check that could not run, once per reason, with how many pairs it left unchecked and how to run it. */
export function skippedCheckLines(results: readonly PairResult[]): string[] {
  const reasons = new Map<string, { check: string; reason: string; pairs: number }>();
  for (const r of results) {
    for (const f of r.findings) {
      if (f.skipped === undefined) continue;
      const key = `${f.check}\0${f.skipped}`;
      const seen = reasons.get(key) ?? { check: f.check, reason: f.skipped, pairs: 0 };
      reasons.set(key, { ...seen, pairs: seen.pairs + 1 });
    }
  }
  return [...reasons.values()].map(
    ({ check, reason, pairs }) => `skipped: the ${check} check on ${pairs} pair(s) — ${reason}`,
  );
}

/** Each runtime whose pairs were skipped, once, with why: a skip is never silent. */
function skippedRuntimeLines(results: readonly PairResult[]): string[] {
  const reasons = new Map<string, { count: number; reason: string }>();
  for (const r of results) {
    if (r.status !== 'skipped') continue;
    const seen = reasons.get(r.runtime) ?? { count: 0, reason: r.reason ?? 'skipped' };
    reasons.set(r.runtime, { ...seen, count: seen.count + 1 });
  }
  return [...reasons].map(([runtime, { count, reason }]) => `skipped: ${count} ${runtime} pair(s) — ${reason}`);
}

/** Lines of one distinct diff the terminal shows; the HTML report holds every line. */
export const TERMINAL_DIFF_LINES = 60;
/** Distinct changes whose diff the terminal shows; the rest are counted and left to the HTML report. */
export const TERMINAL_CHANGES = 3;

/**
 * The verdict in one screen: each failing pair with what failed, naming its changes by number, then each
 * distinct change once (a renderer change on every Python runtime is one diff), cut at a few dozen lines;
 * past the first few changes only their count, with a pointer to the report for the rest.
 */
export function verdictLines(results: readonly PairResult[], htmlReport: string, color: boolean): string[] {
  const groups = runChangeGroups(results.filter((r) => r.status !== 'updated'));
  const numberOf = new Map<string, ChangeGroup>();
  for (const g of groups) for (const path of g.paths) numberOf.set(path, g);
  const lines: string[] = [];
  const failing = results.filter((r) => isFailing(r.status));
  if (failing.length > 0) lines.push('', `failing pairs (${failing.length}):`);
  // Pairs that fail alike (the same status, the same changes, the same reason) are one entry.
  const lineOf = (r: PairResult) => {
    const changes = r.verdicts
      .filter((v) => numberOf.has(v.path))
      .map(
        (v) =>
          `${v.path.slice(v.path.lastIndexOf('/') + 1)} ${v.status === 'new' ? 'new' : 'changed'} [change ${numberOf.get(v.path)!.number}]`,
      );
    const errors = r.findings.filter((f) => f.severity === 'error').length;
    return `${r.status}${changes.length > 0 ? ` — ${changes.join(', ')}` : ''}${errors > 0 ? ` · ${errors} check error(s)` : ''}`;
  };
  for (const { pairs, names } of pairGroups(failing, (r) => `${lineOf(r)}\n${r.reason ?? ''}`)) {
    lines.push(`  ✗ ${names}: ${lineOf(pairs[0]!)}`);
    const reason = capLines(
      shortLines(pairs[0]!.reason),
      REASON_LINES,
      (left) => `… ${left} more line(s) in ${htmlReport}`,
    );
    lines.push(...reason.map((l) => `      ${l}`));
  }
  const shown = groups.filter((g) => g.diff !== undefined || g.status === 'new');
  if (shown.length > 0) {
    const files = shown.reduce((n, g) => n + g.paths.length, 0);
    lines.push('', `${shown.length} distinct change(s) in ${files} file(s):`);
  }
  for (const g of shown.slice(0, TERMINAL_CHANGES)) {
    lines.push('', `[change ${g.number}] ${groupHeading(g)}`);
    if (!g.diff) continue;
    const diff = renderDiff(g.diff, color).split('\n');
    lines.push(...diff.slice(0, TERMINAL_DIFF_LINES));
    if (diff.length > TERMINAL_DIFF_LINES)
      lines.push(`… ${diff.length - TERMINAL_DIFF_LINES} more line(s) of this change in ${htmlReport}`);
  }
  const rest = shown.slice(TERMINAL_CHANGES);
  if (rest.length > 0) {
    const files = rest.reduce((n, g) => n + g.paths.length, 0);
    const numbers = `change${rest.length === 1 ? '' : 's'} ${rest.map((g) => g.number).join(', ')}`;
    lines.push('', `… ${rest.length} more distinct change(s) in ${files} file(s) (${numbers}) in ${htmlReport}`);
  }
  return lines;
}
