import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import type { GateResult } from '../gate/gate.js';
import type { UpdateMode } from '../snapshot/decide.js';
import type { Selection } from '../gate/select.js';
import { RESULTS_VERSION, type GateResults } from './format.js';

/** The commit being gated: git's HEAD in the project, else what the CI says, else unknown. */
export function currentCommit(root: string): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return process.env.GITHUB_SHA ?? process.env.CI_COMMIT_SHA ?? process.env.BUILDKITE_COMMIT ?? process.env.CIRCLE_SHA1 ?? null;
  }
}

export function concordVersion(): string {
  return (JSON.parse(readFileSync(`${packageRoot()}/package.json`, 'utf8')) as { version: string }).version;
}

/** The machine-readable result of one gate run. */
export function gateResults(result: GateResult, run: { root: string; selection: Selection; floor: string; update: UpdateMode; ci: boolean }): GateResults {
  return {
    concordResults: RESULTS_VERSION,
    commit: currentCommit(run.root),
    configuration: {
      concordVersion: concordVersion(),
      floor: run.floor,
      update: run.update,
      ci: run.ci,
      scenarios: run.selection.scenarios ? [...run.selection.scenarios].sort() : null,
      runtimes: run.selection.runtimes ? [...run.selection.runtimes].sort() : null,
    },
    shard: run.selection.shard ?? null,
    runId: result.runId,
    pairs: result.results,
    obsolete: result.obsolete,
    runFindings: result.runFindings,
    matrix: [...result.report.matrix],
    interpreters: [...(result.report.interpreters ?? [])],
    absent: [...(result.report.absent ?? [])],
    proposals: result.proposals,
  };
}
