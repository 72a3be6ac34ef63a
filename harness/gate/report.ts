import type { FileVerdict } from '../snapshot/store.js';
import { groupHeading, runChangeGroups } from '../snapshot/change-groups.js';
import { renderDiff } from '../text/diff.js';
import { COLOR, paint } from '../text/paint.js';
import type { Finding } from '../checks/types.js';
import type { PairTools } from './coverage.js';
import type { PhaseTimes } from './run-one.js';
import type { RunSteps } from './run-steps.js';
import type { SdkSize } from '../report/sdk-cost.js';

/** `unstable`: two runs of the pair gave different transcripts, so neither may become the snapshot. */
export type PairStatus = 'pass' | 'updated' | 'mismatch' | 'unstable' | 'failed' | 'skipped';

export interface PairResult {
  scenario: string;
  runtime: string;
  status: PairStatus;
  times: PhaseTimes;
  verdicts: FileVerdict[];
  findings: Finding[];
  /** Why the pair failed or was skipped, in one paragraph. */
  reason?: string;
  /** The size of the `tools:sdk` block the model read, and of its committed snapshot. */
  sdk?: SdkSize;
  /** The tools the pair's app registered and the ones it called (absent when nothing ran). */
  tools?: PairTools;
}

/** The statuses that fail the gate by themselves. */
export const isFailing = (status: string): boolean => status === 'mismatch' || status === 'failed' || status === 'unstable';

const STATUS_COLOR: Record<PairStatus, number> = { pass: COLOR.green, updated: COLOR.cyan, mismatch: COLOR.red, unstable: COLOR.red, failed: COLOR.red, skipped: COLOR.yellow };
/** Each status has a mark as well as its word, so no output depends on color. */
export const STATUS_MARK: Readonly<Record<PairStatus, string>> = { pass: '✓', updated: '↻', mismatch: '✗', unstable: '≈', failed: '✗', skipped: '-' };

export const ms = (value: number) => `${Math.round(value)} ms`;

/** Lines of a failing pair's reason the terminal shows (in its progress line and in the verdict). */
export const REASON_LINES = 6;
/** Changed files a pair's progress line names; the verdict below numbers every change. */
export const PROGRESS_FILES = 5;

/** `lines`, cut at `cap`, with a last line from `more` saying how many were left out. */
export function capLines(lines: readonly string[], cap: number, more: (left: number) => string): string[] {
  return lines.length <= cap ? [...lines] : [...lines.slice(0, cap), more(lines.length - cap)];
}

export function progressLine(r: PairResult, color: boolean): string {
  const head = statusHead(r.status, color);
  const t = r.times;
  const boot = t.boot !== undefined && Math.round(t.boot) > 0 ? ` · boot ${ms(t.boot)}` : '';
  const timing = r.status === 'skipped' ? '' : `  assembly ${ms(t.assembly)}${boot} · model ${ms(t.model)} · runtime ${ms(t.runtime)} · checks ${ms(t.checks)}`;
  // A pair's line stays short whatever failed: the verdict at the end and the report hold the rest.
  const reason = capLines(r.reason?.split('\n') ?? [], REASON_LINES, (left) => `… ${left} more line(s) of this reason in the report`);
  const changed = capLines(
    r.verdicts.filter((v) => v.status !== 'same').map((v) => `${v.status}: ${v.path}`),
    PROGRESS_FILES,
    (left) => `… ${left} more changed file(s) in the report`,
  );
  const detail = [...reason, ...changed].map((line) => `\n    ${line}`).join('');
  return `${head} ${r.scenario} × ${r.runtime}${timing}${detail}`;
}

/**
 * The line of a pair whose runtime did not run here. Why was said once, on the runtime's own line before the
 * pairs, and the verdict says it again: a gate over many scenarios must not repeat it under each of them.
 */
export function notRunLine(r: PairResult, color: boolean): string {
  return `${statusHead(r.status, color)} ${r.scenario} × ${r.runtime}  (${r.runtime} did not run: why is said above)`;
}

const statusHead = (status: PairStatus, color: boolean) => paint(color, STATUS_COLOR[status], `${STATUS_MARK[status]} ${status.padEnd(8)}`);

/** Scenarios down, runtimes across, one status per cell. */
export function summaryTable(results: readonly PairResult[], runtimes: readonly string[], color: boolean): string {
  const scenarios = [...new Set(results.map((r) => r.scenario))];
  const width = Math.max(8, ...scenarios.map((s) => s.length));
  const cols = runtimes.map((r) => Math.max(r.length, 8));
  const lines = [['scenario'.padEnd(width), ...runtimes.map((r, i) => r.padEnd(cols[i]!))].join('  ')];
  lines.push(['-'.repeat(width), ...cols.map((c) => '-'.repeat(c))].join('  '));
  for (const scenario of scenarios) {
    const cells = runtimes.map((runtime, i) => {
      const r = results.find((x) => x.scenario === scenario && x.runtime === runtime);
      const text = (r?.status ?? '').padEnd(cols[i]!);
      return r ? paint(color, STATUS_COLOR[r.status], text) : text;
    });
    lines.push([scenario.padEnd(width), ...cells].join('  '));
  }
  return lines.join('\n');
}

/** Code points XML 1.0 forbids in a document (its `Char` production), lone surrogates included. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITY: Readonly<Record<string, string>> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

/** Element text: markup escaped, every character XML 1.0 cannot hold shown as U+FFFD, CR kept as CR. */
const xml = (text: string) => text.replace(NOT_XML_CHAR, '\uFFFD').replace(/[<>&"\r]/g, (c) => ENTITY[c]!);
/** An attribute value: as element text, and tabs and line ends kept (a parser would fold them to spaces). */
const xmlAttr = (text: string) => xml(text).replace(/[\t\n]/g, (c) => ENTITY[c]!);

/**
 * JUnit XML: one test case per scenario × runtime, grouped by scenario. A change shared by several files, or
 * a finding several pairs share (the stubs of one SDK rejected on every Python runtime), is written out in the
 * first case that has it; the others name it, so a CI page shows each once.
 */
export function junitXml(results: readonly PairResult[], obsolete: readonly string[]): string {
  const groups = runChangeGroups(results.filter((r) => r.status !== 'updated'));
  const groupOf = new Map(groups.flatMap((g) => g.paths.map((path) => [path, g] as const)));
  const written = new Set<number>();
  const change = (v: FileVerdict, owner: string): string => {
    const group = groupOf.get(v.path);
    if (!group) return v.reason ?? (v.diff ? renderDiff(v.diff, false) : `${v.status}: ${v.path}`);
    if (written.has(group.number)) return `${v.status}: snapshots/${v.path} — change ${group.number}, shown in ${group.paths[0]!.split('/').slice(0, 2).join(' × ')}`;
    written.add(group.number);
    const body = group.diff ? `\n${renderDiff(group.diff, false)}` : '';
    return `change ${group.number} (shown once for ${owner}): ${groupHeading(group)}${body}`;
  };
  const findingOwner = new Map<string, string>();
  const finding = (f: Finding, owner: string): string => {
    const text = `${f.check}: ${f.message}`;
    const first = findingOwner.get(text);
    if (first !== undefined) return `${f.check}: the same ${f.severity === 'note' ? 'note' : 'finding'} as in ${first}`;
    findingOwner.set(text, owner);
    return text;
  };
  const suites = [...new Set(results.map((r) => r.scenario))].map((scenario) => {
    const cases = results.filter((r) => r.scenario === scenario);
    const body = cases.map((r) => {
      const seconds = ((r.times.assembly + (r.times.boot ?? 0) + r.times.model + r.times.runtime + r.times.checks) / 1000).toFixed(3);
      const open = `    <testcase classname="${xmlAttr(scenario)}" name="${xmlAttr(r.runtime)}" time="${seconds}">`;
      if (r.status === 'skipped') return `${open}<skipped message="${xmlAttr(r.reason ?? '')}"/></testcase>`;
      if (!isFailing(r.status)) return `${open}</testcase>`;
      const owner = `${r.scenario} × ${r.runtime}`;
      const details = [r.reason, ...r.findings.map((f) => finding(f, owner)), ...r.verdicts.filter((v) => v.status !== 'same').map((v) => change(v, owner))].filter(Boolean).join('\n');
      return `${open}<failure message="${xmlAttr(r.status)}">${xml(details)}</failure></testcase>`;
    });
    const failures = cases.filter((r) => isFailing(r.status)).length;
    const skipped = cases.filter((r) => r.status === 'skipped').length;
    return `  <testsuite name="${xmlAttr(scenario)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}">\n${body.join('\n')}\n  </testsuite>`;
  });
  if (obsolete.length > 0) {
    suites.push(`  <testsuite name="obsolete snapshots" tests="1" failures="1">\n    <testcase classname="snapshots" name="obsolete"><failure message="obsolete">${xml(obsolete.join('\n'))}</failure></testcase>\n  </testsuite>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="concord gate">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** One line for the run-level steps: the renderer floor and each language's probe, with their times. */
export function stepsLine(steps: RunSteps, color: boolean): string {
  const failed = (check: string) => steps.findings.some((f) => f.severity === 'error' && f.check === check);
  const mark = (bad: boolean) => paint(color, bad ? COLOR.red : COLOR.green, bad ? '✗' : '✓');
  // An app that could not boot or render judged nothing: a step that judged no app is no pass.
  const floorMark = () => (failed('renderer-floor') || steps.floorRendered > 0 ? mark(failed('renderer-floor')) : paint(color, STATUS_COLOR.skipped, STATUS_MARK.skipped));
  const floorApps = () =>
    steps.floorRendered === steps.floorApps ? `${steps.floorApps} app(s)` : `${steps.floorRendered} of ${steps.floorApps} app(s) rendered the fixture; see the notes for the others`;
  const floor = steps.floorApps === 0 ? 'renderer-floor: no Python app selected' : `${floorMark()} renderer-floor (${floorApps()}) ${ms(steps.times.rendererFloor)}`;
  const probes = steps.probes.map((p) => `${mark(p.findings.some((f) => f.severity === 'error'))} probe ${p.language} ${ms(p.elapsedMs)}`);
  return [floor, ...probes].join(' · ');
}
