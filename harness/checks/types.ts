import type { PythonVersion } from '../../codemode/index.js';
import type { RuntimeTarget } from '../assembly/runtimes.js';
import type { Scenario } from '../scenario/types.js';
import type { Session } from '../session.js';
import type { RunRecord, SnapshotFiles } from '../snapshot/transcript.js';

/** Something a check found wrong (or worth saying) about one scenario × runtime. */
export interface Finding {
  check: string;
  /** Errors fail the gate; notes are printed only. */
  severity: 'error' | 'note';
  message: string;
  /**
   * Set when the check could not run at all (a note then): why, with the command that makes it run. A run
   * that skipped a check does not report that everything agrees.
   */
  skipped?: string;
}

/**
 * What every check receives: the scenario, the runtime it ran on, the raw record, the snapshot files and
 * the session of the command (its verdict cache, pyright, interpreters, and what it computed once).
 */
export interface CheckInput {
  scenario: Scenario;
  runtime: RuntimeTarget;
  record: RunRecord;
  files: SnapshotFiles;
  /** The oldest CPython the Python SDK must serve (the gate's `--floor`); default 3.9. */
  floor?: PythonVersion;
  session: Session;
}

/** A check runs after each scenario × runtime; it must not throw for a finding (return it instead). */
export interface Check {
  id: string;
  run(input: CheckInput): Promise<Finding[]> | Finding[];
}
