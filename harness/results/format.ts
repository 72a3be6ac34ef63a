import type { Finding } from '../checks/types.js';
import type { StubCell } from '../interpreters/types.js';
import type { PairResult, Proposal, ReportInterpreter } from '../report/outcome.js';
import type { UpdateMode } from '../snapshot/decide.js';

/** Bumped whenever a reader of an older file would misread a newer one. */
export const RESULTS_VERSION = 1;

/**
 * What `concord gate --results FILE` writes: one run (or one shard of a run), complete enough that
 * `concord merge` can give the verdict, summary, JUnit file, reports and pending proposals of the whole run
 * from the shards' files alone. See docs/ci.md.
 */
export interface GateResults {
  concordResults: typeof RESULTS_VERSION;
  /** The commit the run gated (`git rev-parse HEAD` in the project root, else the CI's variable), if known. */
  commit: string | null;
  /** Everything that must agree between shards of one run. */
  configuration: {
    concordVersion: string;
    floor: string;
    update: UpdateMode;
    ci: boolean;
    /** The selection without its shard. */
    scenarios: string[] | null;
    runtimes: string[] | null;
  };
  shard: { index: number; count: number } | null;
  runId: string;
  pairs: PairResult[];
  obsolete: string[];
  runFindings: Finding[];
  matrix: StubCell[];
  interpreters: ReportInterpreter[];
  absent: string[];
  /** The run's proposals with their content, so a merge can gather every shard's into one pending run. */
  proposals: Proposal[];
}
