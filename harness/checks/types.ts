import type { PythonVersion } from '../../codemode/index.js';
import type { RuntimeTarget } from '../assembly/runtimes.js';
import type { Finding } from '../findings.js';
import type { ModelView } from '../readers/model-view.js';
import type { Scenario } from '../scenario/types.js';
import type { Session } from '../session.js';
import type { RunRecord, SnapshotFiles } from '../snapshot/transcript.js';

export type { Finding };

/** What only a gate's scenario × runtime has: the scenario, the runtime it ran on, what ran, the snapshot files. */
export interface PairRun {
  scenario: Scenario;
  runtime: RuntimeTarget;
  /** Everything that crossed the seams, before normalizing: the runs as well as the requests. */
  record: RunRecord;
  files: SnapshotFiles;
}

/** What every check reads: what the model was shown, the floor, the command's session, and (in a gate) the pair. */
export interface CheckInput {
  view: ModelView;
  /** The oldest CPython the Python SDK must serve. */
  floor: PythonVersion;
  session: Session;
  /** Absent in `concord check`, `checkRequest`, `checkSdk` and the matcher. */
  pair?: PairRun | undefined;
}

/** A check on what a model was shown; it must not throw for a finding (return it instead). */
export interface ViewCheck {
  id: string;
  needsPair?: undefined;
  run(input: CheckInput): Promise<Finding[]> | Finding[];
}

/** A check that reads what only a gate's pair has; elsewhere it skips, saying `needsPair` once. */
export interface PairCheck {
  id: string;
  /** Why it needs the pair, as the skip says it: `it boots the app to run a probe program`. */
  needsPair: string;
  run(input: CheckInput & { pair: PairRun }): Promise<Finding[]> | Finding[];
}

export type Check = ViewCheck | PairCheck;

/** A check a caller could not run, and why. */
export interface SkippedCheck {
  check: string;
  why: string;
}
