import { relative, resolve } from 'node:path';
import { inside } from '../guarded/inside.js';
import type { Selection } from '../pairs/select.js';
import { junitXml } from '../report/junit.js';
import type { RunOutcome } from '../report/outcome.js';
import { gateVerdict, printSummary } from '../report/summary.js';
import { writeReport } from '../report/write.js';
import { writesEverything } from '../snapshot/decide.js';
import { PENDING_ARTIFACT } from '../snapshot/pending.js';

export interface FinishOptions {
  /** Where `.concord/report.md` and `report.html` are written below. */
  reportRoot: string;
  /** CI is set on this machine: the proposals are reviewed elsewhere, from the uploaded artifact. */
  ci: boolean;
  color: boolean;
  out(line: string): void;
  /** `--results FILE`: the run as JSON for `concord merge`. */
  results?: { file: string; root: string; selection: Selection };
  /**
   * Pull-request extras: annotations on GitHub Actions (by each pair's scenario file) and the step summary when
   * `GITHUB_STEP_SUMMARY` is set.
   */
  github?: { scenarioFiles?: Readonly<Record<string, string>> };
  /** The JUnit file, its place checked before the run. */
  junit?: { path: string; write(xml: string): Promise<void> };
}

/**
 * The end of a gate or merge run, the same for both: the report, then the results file, the pull-request
 * annotations and summary and the JUnit file, each when asked for, then the summary on the console, so that its
 * last line is the verdict.
 */
export async function finishRun(
  outcome: RunOutcome,
  options: FinishOptions,
): Promise<{ ok: boolean; reportFile: string }> {
  const { out } = options;
  // Files of the project are named from its root, so the lines stay short and read the same on every machine.
  const shown = (file: string) => (inside(file, options.reportRoot) ? relative(options.reportRoot, file) : file);
  const reportFile = await writeReport(options.reportRoot, outcome);
  const { pairs, obsolete, pendingDir, runFindings, coverage } = outcome;
  const ok = gateVerdict(pairs, obsolete, outcome, runFindings, coverage);
  if (options.results) {
    const [{ gateResults }, { writeFileAtomic }] = await Promise.all([
      import('../results/write.js'),
      import('../guarded/atomic.js'),
    ]);
    const file = resolve(options.results.file);
    await writeFileAtomic(file, JSON.stringify(gateResults(outcome, options.results), null, 2) + '\n');
    out(`results: ${shown(file)}`);
  }
  if (options.github) {
    const [{ githubAnnotations, onGithubActions }, { printWorkflowCommands }] = await Promise.all([
      import('../report/annotations.js'),
      import('../report/workflow-commands.js'),
    ]);
    const files = options.github.scenarioFiles;
    if (files && onGithubActions())
      printWorkflowCommands(await githubAnnotations(pairs.map((pair) => ({ pair, file: files[pair.scenario]! }))), out);
    const { appendStepSummary, stepSummary } = await import('../report/step-summary.js');
    const summaryFile = await appendStepSummary(() =>
      stepSummary(outcome, { ok, obsolete, ...(pendingDir ? { pendingArtifact: PENDING_ARTIFACT } : {}) }),
    );
    if (summaryFile) out(`pull-request summary: appended to ${summaryFile}`);
  }
  if (options.junit) {
    await options.junit.write(junitXml(pairs, obsolete));
    out(`junit report: ${shown(options.junit.path)}`);
  }
  printSummary(options, {
    results: pairs,
    obsolete,
    inPlace: writesEverything(outcome),
    pendingDir,
    ok,
    runFindings,
    reportFile: shown(reportFile),
    ci: options.ci,
    coverage,
    sdkTokensMissing: outcome.sdkTokensMissing,
    leftOut: outcome.leftOut,
  });
  return { ok, reportFile };
}
