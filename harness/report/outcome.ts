// What a gate run ends with, as one set of types: every output (the terminal, report.md, report.html, JUnit,
// the step summary, annotations, the results file) is written from these and nothing else.
import type { SdkSize } from '../cache/token-counter.js';
import type { PairTools, ToolCoverage } from '../checks/tool-coverage.js';
import type { Finding } from '../checks/types.js';
import type { StubCell } from '../interpreters/types.js';
import type { PhaseTimes } from '../pairs/run-one.js';
import type { ProbeVerdict } from '../probe/adversarial.js';
import type { RuntimeName } from '../runtime-names.js';
import type { UpdateMode } from '../snapshot/decide.js';
import type { PendingChange } from '../snapshot/pending.js';
import type { FileVerdict } from '../snapshot/store.js';

/** `unstable`: two runs of the pair gave different transcripts, so neither may become the snapshot. */
export type PairStatus = 'pass' | 'updated' | 'mismatch' | 'unstable' | 'failed' | 'skipped';

/** The statuses that fail the gate by themselves. */
export const isFailing = (status: string): boolean =>
  status === 'mismatch' || status === 'failed' || status === 'unstable';

/** Each status has a mark as well as its word, so no output depends on color. */
export const STATUS_MARK: Readonly<Record<PairStatus, string>> = {
  pass: '✓',
  updated: '↻',
  mismatch: '✗',
  unstable: '≈',
  failed: '✗',
  skipped: '-',
};

/** One scenario × runtime as a report reads it (a PairResult fits; a report of a partial run may lack the rest). */
export interface ReportPair {
  scenario: string;
  runtime: string;
  status: string;
  findings: readonly Finding[];
  /** Why the pair failed or was skipped. */
  reason?: string;
  /** Milliseconds per phase, and what became of each snapshot file (the HTML report shows both). */
  times?: { readonly assembly: number; readonly model: number; readonly runtime: number; readonly checks: number };
  verdicts?: readonly FileVerdict[];
  /** The size of the `tools:sdk` block, and of its committed snapshot. */
  sdk?: SdkSize;
}

/** One scenario × runtime as the gate finished it. */
export interface PairResult extends ReportPair {
  status: PairStatus;
  times: PhaseTimes;
  verdicts: FileVerdict[];
  findings: Finding[];
  /** The tools the pair's app registered and the ones it called (absent when nothing ran). */
  tools?: PairTools;
}

export interface ReportInterpreter {
  label: string;
  version: string;
  unicode: string;
  detail: string;
}

/** What the steps judged once per gate run (not per pair) found, and what they cost. */
export interface RunSteps {
  findings: Finding[];
  /** One verdict per language the run exercised. */
  probes: ProbeVerdict[];
  /** Milliseconds of the renderer-floor step and of the probe (all languages). */
  times: { rendererFloor: number; probe: number };
  /** How many apps were asked to render the floor fixture, and how many did. */
  floorApps: number;
  floorRendered: number;
}

/** Everything `.concord/report.md` and `report.html` are written from. */
export interface ReportInput {
  runId: string;
  /** The floor the gate checked against, e.g. `3.9`. */
  floor?: string;
  pairs: readonly ReportPair[];
  /** The stub-validity matrix: `stubMatrix(session)`. */
  matrix: readonly StubCell[];
  /** The interpreters of the run and what is missing (the session inventory's `interpreters` and `absent`). */
  interpreters?: readonly ReportInterpreter[];
  absent?: readonly string[];
  /** Findings about the whole run rather than one pair, e.g. `rendererFloorFindings(...)`. */
  runFindings?: readonly Finding[];
  /** The adversarial probe's verdict per language. */
  probes?: readonly ProbeVerdict[];
  /** Milliseconds of the run-level steps. */
  stepTimes?: RunSteps['times'];
  /** Registered tools no program of the run called, per language. */
  coverage?: ToolCoverage;
}

/** A change the run proposed, with its content when it has one. */
export type Proposal = PendingChange & { proposed?: string };

/** A gate run as its end reads it: from the gate itself, or merged from its shards' results files. */
export interface RunOutcome extends ReportInput {
  pairs: PairResult[];
  floor: string;
  runFindings: Finding[];
  coverage: ToolCoverage;
  /** Obsolete snapshot folders, as `scenario/runtime`. */
  obsolete: string[];
  /** How the run treated differences: an obsolete folder fails it unless it wrote everything in place. */
  update: UpdateMode;
  ci: boolean;
  /** Every change the run proposed (in the pending folder, or written with --update). */
  proposals: Proposal[];
  /** Where the run's proposals went, if it made any. */
  pendingDir?: string;
  /** Why the SDK was not measured in tokens (js-tiktoken is not installed), when a pair asked. */
  sdkTokensMissing?: string;
  /** Runtimes no list named that cannot run here: left out of the run (see `runtimesNotRun`). */
  leftOut?: RuntimeName[];
}
