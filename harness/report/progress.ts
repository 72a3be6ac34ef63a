import { COLOR, paint } from '../text/paint.js';
import { shortLines } from '../text/short-line.js';
import { type PairResult, type PairStatus, type RunSteps, STATUS_MARK } from './outcome.js';

const STATUS_COLOR: Record<PairStatus, number> = {
  pass: COLOR.green,
  updated: COLOR.cyan,
  mismatch: COLOR.red,
  unstable: COLOR.red,
  failed: COLOR.red,
  skipped: COLOR.yellow,
};
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
  const timing =
    r.status === 'skipped'
      ? ''
      : `  assembly ${ms(t.assembly)}${boot} · model ${ms(t.model)} · runtime ${ms(t.runtime)} · checks ${ms(t.checks)}`;
  // A pair's line stays short whatever failed: the verdict at the end and the report hold the rest.
  const reason = capLines(
    shortLines(r.reason),
    REASON_LINES,
    (left) => `… ${left} more line(s) of this reason in the report`,
  );
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

const statusHead = (status: PairStatus, color: boolean) =>
  paint(color, STATUS_COLOR[status], `${STATUS_MARK[status]} ${status.padEnd(8)}`);

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

/** One line for the run-level steps: the renderer floor and each language's probe, with their times. */
export function stepsLine(steps: RunSteps, color: boolean): string {
  const failed = (check: string) => steps.findings.some((f) => f.severity === 'error' && f.check === check);
  const mark = (bad: boolean) => paint(color, bad ? COLOR.red : COLOR.green, bad ? '✗' : '✓');
  // An app that could not boot or render judged nothing: a step that judged no app is no pass.
  const floorMark = () =>
    failed('renderer-floor') || steps.floorRendered > 0
      ? mark(failed('renderer-floor'))
      : paint(color, STATUS_COLOR.skipped, STATUS_MARK.skipped);
  const floorApps = () =>
    steps.floorRendered === steps.floorApps
      ? `${steps.floorApps} app(s)`
      : `${steps.floorRendered} of ${steps.floorApps} app(s) rendered the fixture; see the notes for the others`;
  const floor =
    steps.floorApps === 0
      ? 'renderer-floor: no Python app selected'
      : `${floorMark()} renderer-floor (${floorApps()}) ${ms(steps.times.rendererFloor)}`;
  const probes = steps.probes.map(
    (p) => `${mark(p.findings.some((f) => f.severity === 'error'))} probe ${p.language} ${ms(p.elapsedMs)}`,
  );
  return [floor, ...probes].join(' · ');
}
