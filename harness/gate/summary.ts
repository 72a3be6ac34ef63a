import type { Finding } from '../checks/types.js';
import { RUNTIME_NAMES } from '../scenario/types.js';
import { renderDiff } from '../text/diff.js';
import type { UpdateMode } from './gate.js';
import { ms, summaryTable, type PairResult } from './report.js';

/** Exit 0 only when every pair agrees, no obsolete folder is left, and no run finding is an error. */
export function gateVerdict(results: readonly PairResult[], obsolete: readonly string[], update: UpdateMode, runFindings: readonly Finding[]): boolean {
  return (
    results.every((r) => r.status === 'pass' || r.status === 'updated' || r.status === 'skipped') &&
    (obsolete.length === 0 || update === 'all') &&
    !runFindings.some((f) => f.severity === 'error')
  );
}

export interface Summary {
  results: readonly PairResult[];
  obsolete: readonly string[];
  update: UpdateMode;
  pendingDir: string | undefined;
  ok: boolean;
  runFindings: readonly Finding[];
  reportFile: string;
}

/** The end of a gate (or merge) run on the console: the matrix, the diffs, the totals and the verdict. */
export function printSummary({ out, color }: { out(line: string): void; color: boolean }, summary: Summary): void {
  const { results, obsolete, update, pendingDir, ok, runFindings, reportFile } = summary;
  out('');
  const runtimes = RUNTIME_NAMES.filter((r) => results.some((x) => x.runtime === r));
  if (results.length > 0) out(summaryTable(results, runtimes, color));
  for (const folder of obsolete) out(`obsolete snapshot folder: snapshots/${folder} (no scenario declares it)${update === 'all' ? ' — removed' : ''}`);
  for (const r of results) {
    for (const v of r.verdicts) {
      if (v.status === 'garbage') out(`\n${v.reason}`);
      if (v.status === 'changed' && v.diff && !(update === 'all')) out('\n' + renderDiff(v.diff, color));
      if (v.status === 'obsolete' && update !== 'all') out(`obsolete snapshot file: snapshots/${v.path}`);
    }
  }
  const total = { assembly: 0, model: 0, runtime: 0, checks: 0 };
  for (const r of results) for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] += r.times[k];
  for (const f of runFindings) out(`\n${f.severity} ${f.check}: ${f.message}`);
  const count = (s: string) => results.filter((r) => r.status === s).length;
  out('');
  out(`time: assembly ${ms(total.assembly)} · model ${ms(total.model)} · runtime ${ms(total.runtime)} · checks ${ms(total.checks)}`);
  out(`${results.length} run(s): ${count('pass')} pass, ${count('updated')} updated, ${count('mismatch')} mismatch, ${count('failed')} failed, ${count('skipped')} skipped; ${obsolete.length} obsolete folder(s)`);
  if (pendingDir) out(`proposed changes: ${pendingDir} — accept or reject them with \`concord review\``);
  out(`report: ${reportFile} (the stub-validity matrix, the probe's verdict and every finding)`);
  out(ok ? 'gate: everything agrees' : 'gate: FAILED');
}
