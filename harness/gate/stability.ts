import type { RunRecord, SnapshotFiles } from '../snapshot/transcript.js';

/** Where two runs of one pair first part: the file, the line (1-based) and that line in each run. */
export interface FirstDifference {
  file: string;
  line: number;
  first: string | undefined;
  second: string | undefined;
}

/** The first line at which the snapshot files of two runs differ, files in name order; none when they agree. */
export function firstDifference(first: SnapshotFiles, second: SnapshotFiles): FirstDifference | undefined {
  const names = [...new Set([...first.keys(), ...second.keys()])].sort();
  for (const file of names) {
    const a = first.get(file);
    const b = second.get(file);
    if (a === b) continue;
    if (a === undefined || b === undefined)
      return {
        file,
        line: 1,
        first: a === undefined ? undefined : '(the file)',
        second: b === undefined ? undefined : '(the file)',
      };
    const left = a.split('\n');
    const right = b.split('\n');
    let line = 0;
    while (line < left.length && line < right.length && left[line] === right[line]) line++;
    return { file, line: line + 1, first: left[line], second: right[line] };
  }
  return undefined;
}

const calls = (record: RunRecord) => record.programs.reduce((n, p) => n + p.calls.length, 0);
const timedOut = (record: RunRecord) => record.programs.some((p) => p.result.error?.kind === 'timeout');

/** The first tool call, in call order, that both runs made with the same arguments and that answered differently. */
function firstDifferentAnswer(first: RunRecord, second: RunRecord): { tool: string; index: number } | undefined {
  const list = (record: RunRecord) => record.programs.flatMap((p) => p.calls);
  const [a, b] = [list(first), list(second)];
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const [x, y] = [a[index]!, b[index]!];
    if (x.tool !== y.tool || JSON.stringify(x.args) !== JSON.stringify(y.args)) return undefined;
    if (JSON.stringify([x.value, x.error]) !== JSON.stringify([y.value, y.error])) return { tool: x.tool, index };
  }
  return undefined;
}

const CHANGING_OUTPUT =
  "(a clock, a random value, an order that is not fixed, or state a plugin module keeps in a variable of its own, which lives on from one pair's app to the next): make the tool deterministic (state goes in the app, made in apply), or redact the value with a pattern under redactions in concord.config.yml";

/**
 * Why two runs of one pair probably differ, and what makes the pair deterministic. A tool that answered the same call
 * differently comes first after a cut-off run: the other differences (more calls, a run that stopped short) follow from it.
 */
export function instabilityHint(first: RunRecord, second: RunRecord, timeoutMs: number | undefined): string {
  const counts = `${calls(first)} tool call(s) in the first run, ${calls(second)} in the second`;
  const budget = timeoutMs === undefined ? 'the time budget' : `the time budget (timeoutMs ${timeoutMs})`;
  if (timedOut(first) || timedOut(second)) {
    return `calls cut off by ${budget}: a program ran until the budget stopped it, so what it called depends on the machine's speed (${counts}); poll a fixed number of times, or end the program before the budget`;
  }
  const answer = firstDifferentAnswer(first, second);
  if (answer !== undefined)
    return `${answer.tool} answered the same call (call ${answer.index + 1}) differently in the two runs ${CHANGING_OUTPUT}`;
  if (calls(first) !== calls(second))
    return `the number of calls differs (${counts}): the program's calls depend on timing or on values that change between runs`;
  if (first.failure !== second.failure)
    return 'one run stopped short and the other did not: the agent or a runtime depends on timing';
  return `a tool's output or the program's result changes between runs ${CHANGING_OUTPUT}`;
}

const quoted = (line: string | undefined) =>
  line === undefined ? '(absent)' : JSON.stringify(line.length > 160 ? `${line.slice(0, 160)}…` : line);

/** The reason an unstable pair gives: the first difference between its two runs and the hint. */
export function unstableReason(difference: FirstDifference, hint: string): string {
  return [
    `two runs of this pair gave different transcripts, so neither is written or proposed as the snapshot`,
    `first difference: ${difference.file} line ${difference.line}: ${quoted(difference.first)} in the first run, ${quoted(difference.second)} in the second`,
    `hint: ${hint}`,
  ].join('\n');
}
