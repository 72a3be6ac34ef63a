import { execFileSync } from 'node:child_process';
import type { Selection } from '../pairs/select.js';
import type { RunOutcome } from '../report/outcome.js';
import { concordVersion } from '../version.js';
import { type GateResults, RESULTS_VERSION } from './format.js';

/** The commit being gated: git's HEAD in the project, else what the CI says, else unknown. */
export function currentCommit(root: string): string | null {
  try {
    return (
      execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() || null
    );
  } catch {
    return (
      process.env.GITHUB_SHA ??
      process.env.CI_COMMIT_SHA ??
      process.env.BUILDKITE_COMMIT ??
      process.env.CIRCLE_SHA1 ??
      null
    );
  }
}

/** The machine-readable result of one gate run. */
export function gateResults(run: RunOutcome, { root, selection }: { root: string; selection: Selection }): GateResults {
  return {
    concordResults: RESULTS_VERSION,
    commit: currentCommit(root),
    configuration: {
      concordVersion: concordVersion(),
      floor: run.floor,
      update: run.update,
      ci: run.ci,
      scenarios: selection.scenarios ? [...selection.scenarios].sort() : null,
      runtimes: selection.runtimes ? [...selection.runtimes].sort() : null,
    },
    shard: selection.shard ?? null,
    runId: run.runId,
    pairs: run.pairs,
    obsolete: run.obsolete,
    runFindings: run.runFindings,
    matrix: [...run.matrix],
    interpreters: [...(run.interpreters ?? [])],
    absent: [...(run.absent ?? [])],
    proposals: run.proposals,
  };
}
