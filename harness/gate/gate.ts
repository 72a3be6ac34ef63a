import { join } from 'node:path';
import { DEFAULT_PYTHON_FLOOR, type PythonVersion } from '../../codemode/index.js';
import type { RuntimeName, RuntimeTarget } from '../assembly/runtimes.js';
import { runChecks } from '../checks/index.js';
import { stubValidity } from '../checks/stub-validity.js';
import type { Finding } from '../checks/types.js';
import { disposeSharedInventory, sharedInventory } from '../interpreters/inventory.js';
import { cacheLine, useVerdictCache } from '../cache/verdict-cache.js';
import type { ReportInput } from '../report/markdown.js';
import { GuardedFolder } from '../guarded/folder.js';
import { concordFolder, writeReport } from '../report/write.js';
import { importPlugins } from '../assembly/plugin-import.js';
import { scenarioForLanguage } from '../scenario/recording.js';
import type { Scenario } from '../scenario/types.js';
import { newRunId, writePending, type PendingChange } from '../snapshot/pending.js';
import { applyVerdict, compareFolder, snapshotFingerprint, snapshotFolder, snapshotFolders, sweepFolder, type FileVerdict } from '../snapshot/store.js';
import { SDK_FILE, snapshotFiles, type SnapshotFiles } from '../snapshot/transcript.js';
import { measureSdk, sdkBudgetFindings, sdkCost, type SdkSize } from '../report/sdk-cost.js';
import type { CoverageLevel, SdkBudget } from '../project/config.js';
import { decide, writesEverything, type UpdateMode } from '../snapshot/decide.js';
import type { Redaction } from '../snapshot/redactions.js';
import { progressLine, stepsLine, type PairResult } from './report.js';
import { runtimesNotRun } from './availability.js';
import { gateVerdict, printSummary } from './summary.js';
import { runOne } from './run-one.js';
import { Session } from '../session.js';
import { pairTools, toolCoverage, type ToolCoverage } from './coverage.js';
import { firstDifference, instabilityHint, unstableReason } from './stability.js';
import { runSteps, type RunSteps } from './run-steps.js';
import { inSelection, selectPairs, type Selection } from './select.js';
import { drivePairs, loadPairs } from '../pairs/drive.js';

export type Proposal = PendingChange & { proposed?: string };

export interface GateOptions {
  /** The package root: `scenarios/`, `snapshots/` and `.concord/` are found below it unless overridden. */
  root: string;
  scenariosDir?: string;
  snapshotsDir?: string;
  pendingRoot?: string;
  /** Where `.concord/report.md` is written below (default `root`). */
  reportRoot?: string;
  selection: Selection;
  /** `--skip-runtime`: runtimes left out on purpose (their pairs are skipped, and the summary says so). */
  skipRuntimes?: readonly RuntimeName[];
  /** The runtime's time budget for scenarios that set none (`timeoutMs` of `concord.config.yml`). */
  defaultTimeoutMs?: number;
  /** The project's own redactions (`concord.config.yml`), applied with the built-in ones before compare and write. */
  redactions?: readonly Redaction[];
  /** The oldest CPython the Python SDK must serve; every renderer in the run must be pinned to it (default 3.9). */
  floor?: PythonVersion;
  update: UpdateMode;
  /** Limits on each scenario's SDK in tokens (`sdkBudget` of `concord.config.yml`); passing one fails the gate. */
  sdkBudget?: SdkBudget;
  /** Registered tools no scenario's program called: listed as a warning (default), or an error that fails the gate. */
  uncalledTools?: CoverageLevel;
  /** Pairs run at the same time (default 1); output and snapshots are the same as a serial run's. */
  jobs?: number;
  /** In CI nothing under the snapshots folder is written; proposals go to the pending folder. */
  ci: boolean;
  /** Reuse and store verdicts in `<root>/.concord/cache/` (stub compile and import, pyright); default false. */
  cache?: boolean;
  /** Internal, for `npm run bench -- gate` alone: false never runs a pair twice before writing or proposing. */
  stabilityRerun?: boolean;
  color: boolean;
  out(line: string): void;
}

export interface GateResult {
  ok: boolean;
  results: PairResult[];
  /** Obsolete snapshot folders, as `scenario/runtime`. */
  obsolete: string[];
  /** Where this run's proposals went, if it made any. */
  pendingDir?: string;
  runId: string;
  /** Findings about the whole run, not one pair: the renderer floor and the adversarial probe. */
  runFindings: Finding[];
  /** The run-level steps: the probe's verdict per language and what the steps cost. */
  steps: RunSteps;
  /** The written `.concord/report.md`. */
  reportFile: string;
  /** What the report was written from: the matrix and interpreters of the run too. */
  report: ReportInput;
  /** Every change this run proposed (in the pending folder, or written with --update). */
  proposals: Proposal[];
  /** The absolute path of each selected scenario's file, by scenario name (for annotations). */
  scenarioFiles: Record<string, string>;
  /** Registered tools no program of the run called, per language. */
  coverage: ToolCoverage;
}

/** Runs the selected scenario × runtime pairs, compares them with the snapshots and reports. */
export async function runGate(options: GateOptions): Promise<GateResult> {
  const scenariosDir = options.scenariosDir ?? join(options.root, 'scenarios');
  const snapshotsDir = options.snapshotsDir ?? join(options.root, 'snapshots');
  const pendingRoot = options.pendingRoot ?? join(options.root, '.concord', 'pending');
  const { out, color } = options;
  const { update, ci } = options;
  if (ci && update !== 'none') out(`CI is set: --update=${update} is ignored; nothing under snapshots/ is written, proposals go to ${pendingRoot}`);

  // Folders concord writes into must be real folders before anything runs: a link or a file there is bad input.
  for (const folder of [snapshotFolder(snapshotsDir), concordFolder(options.reportRoot ?? options.root), new GuardedFolder(pendingRoot, '.concord/pending')]) await folder.check();
  const { scenarios, pairs } = await loadPairs(options.root, options.selection, scenariosDir);
  // A plugin that cannot be imported is the user's input to fix: one error at its place, before any pair runs.
  await importPlugins([...new Set(pairs.map((p) => p.scenario))]);
  const { shard } = options.selection;
  if (shard && pairs.length === 0) {
    const whole = selectPairs(scenarios, { ...options.selection, shard: undefined }).length;
    out(`--shard ${shard.index}/${shard.count}: none of the ${whole} scenario × runtime pair(s) of the selection falls in this shard; nothing to run here`);
  }
  const floor = options.floor ?? DEFAULT_PYTHON_FLOOR;
  const skipped = await runtimesNotRun({ pairs, skip: options.skipRuntimes ?? [], ci: options.ci, snapshotsDir, out });
  const runId = newRunId();
  // What the run's apps share (pooled runtimes, the parsed scenarios), owned by this run alone.
  const session = new Session();
  const results: PairResult[] = [];
  const proposals: Proposal[] = [];
  let reportFile: string;
  let reportInput: ReportInput;
  let steps: RunSteps;
  let coverage: ToolCoverage;
  // The newest run wins: older proposals for the folders this run compared are dropped from pending.
  const compared = (path: string) => results.some((r) => (r.verdicts.length > 0 || r.status === 'unstable') && path.startsWith(`${r.scenario}/${r.runtime}/`));
  const keep = (list: Proposal[]) => writePending(pendingRoot, runId, list, compared);
  // A snapshot that cannot be written or read (a read-only folder, a full disk, a link) must not cost the run its proposals.
  const keepingProposals = async (error: unknown): Promise<never> => {
    const kept = await keep(proposals).catch(() => undefined);
    if (kept) out(`the proposals of this run are kept in ${kept}; accept them with \`concord review\` once the problem is fixed`);
    throw error;
  };

  const cache = useVerdictCache(options.cache ? options.root : undefined);
  try {
    // Pairs run side by side on the shared runtimes. Each pair's proposals join the run's as it finishes, so a
    // failure keeps them; once all are done they are put in pair order, so the output and every file written
    // are the same as a serial run's.
    const finished = await drivePairs({
      session,
      pairs,
      jobs: options.jobs ?? 1,
      defaultTimeoutMs: options.defaultTimeoutMs,
      notRun: {
        runtimes: skipped,
        result: ({ scenario, runtime }, notRun): { result: PairResult; own: Proposal[] } => ({
          result: { scenario: scenario.name, runtime, status: notRun.status, times: { assembly: 0, model: 0, runtime: 0, checks: 0 }, verdicts: [], findings: [], reason: notRun.reason },
          own: [],
        }),
      },
      run: async ({ scenario, target }) => {
        const own: Proposal[] = [];
        const result = await runPair(scenario, target, snapshotsDir, options.root, { update, ci, rerun: options.stabilityRerun !== false }, own, floor, options.redactions ?? []).catch((error: unknown) => {
          proposals.push(...own);
          return keepingProposals(error);
        });
        proposals.push(...own);
        return { result, own };
      },
      settled: ({ result }) => out(progressLine(result, color)),
    });
    results.push(...finished.map((f) => f.result));
    proposals.splice(0, proposals.length, ...finished.flatMap((f) => f.own));
    // Once per run, on the runtimes the pairs kept warm: the renderer floor and the adversarial probe.
    steps = await runSteps(pairs, new Set(skipped.keys()), floor, sharedInventory, session);
    steps.findings.push(...sdkBudgetFindings(sdkCost(results), options.sdkBudget));
    out(stepsLine(steps, color));
    if (cache) {
      await cache.prune();
      out(cacheLine(cache));
    }
    // The report reads the inventory's interpreters, so it is written before the inventory is disposed.
    const ran = new Set(results.map((r) => `${r.scenario}/${r.runtime}`));
    const matrix = stubValidity.matrix().filter((c) => ran.has(`${c.scenario}/${c.runtime}`));
    const inventory = matrix.length > 0 || steps.probes.some((p) => p.language === 'python') ? await sharedInventory() : undefined;
    coverage = toolCoverage(results, options.uncalledTools);
    reportInput = {
      runId,
      coverage,
      floor,
      pairs: results,
      matrix,
      ...(inventory ? { interpreters: inventory.interpreters, absent: inventory.absent } : {}),
      runFindings: steps.findings,
      probes: steps.probes,
      stepTimes: steps.times,
    };
    reportFile = await writeReport(options.reportRoot ?? options.root, reportInput);
  } finally {
    useVerdictCache(undefined);
    try {
      await session.dispose();
    } finally {
      await disposeSharedInventory();
    }
  }

  const obsolete = await obsoleteFolders(snapshotsDir, scenarios, options.selection).catch(keepingProposals);
  for (const folder of obsolete) {
    if (decide('obsolete', update, ci) === 'write') await applyVerdict(snapshotsDir, { path: folder, status: 'obsolete' }).catch(keepingProposals);
    else proposals.push({ path: folder, action: 'delete', status: 'obsolete', base: await snapshotFingerprint(snapshotsDir, folder).catch(keepingProposals) });
  }

  const pendingDir = await keep(proposals);
  const ok = gateVerdict(results, obsolete, { update, ci }, steps.findings, coverage);
  printSummary(options, { results, obsolete, inPlace: writesEverything(update, ci), pendingDir, ok, runFindings: steps.findings, reportFile, ci, coverage });
  const scenarioFiles = Object.fromEntries(pairs.map((p) => [p.scenario.name, p.scenario.file]));
  return { ok, results, obsolete, runId, runFindings: steps.findings, steps, reportFile, report: reportInput, proposals, scenarioFiles, coverage, ...(pendingDir ? { pendingDir } : {}) };
}

async function runPair(
  scenario: Scenario,
  target: RuntimeTarget,
  snapshotsDir: string,
  root: string,
  { update, ci, rerun }: { update: UpdateMode; ci: boolean; rerun: boolean },
  proposals: Proposal[],
  floor: PythonVersion,
  redactions: readonly Redaction[],
): Promise<PairResult> {
  const runtime = target.name;
  const base = { scenario: scenario.name, runtime } as const;
  let one;
  try {
    // A recorded scenario replays (and is checked against) the recording of this runtime's language.
    scenario = scenarioForLanguage(scenario, target.language);
    one = await runOne(scenario, target);
  } catch (error) {
    return { ...base, status: 'failed', times: { assembly: 0, model: 0, runtime: 0, checks: 0 }, verdicts: [], findings: [], reason: (error as Error).message };
  }
  const { record, times } = one;
  const tools = pairTools(record);
  const files = snapshotFiles(record, root, redactions);
  const started = performance.now();
  const findings: Finding[] = await runChecks({ scenario, runtime: target, record, files, floor });
  times.checks = performance.now() - started;

  const errors = findings.filter((f) => f.severity === 'error');
  const problems = [record.failure, ...errors.map((f) => `${f.check}: ${f.message}`)].filter(Boolean).join('\n');
  const folder = `${scenario.name}/${runtime}`;
  const verdicts = await compareFolder(snapshotsDir, folder, files);
  // Before anything is written or proposed, the pair runs once more: a transcript that two runs do not agree
  // on would be blessed only to fail the next run. Pairs that agree with their snapshots do not pay for this.
  if (rerun && !problems && verdicts.some((v) => decide(v.status, update, ci) !== 'keep')) {
    let again;
    try {
      again = await runOne(scenario, target);
    } catch (error) {
      return { ...base, status: 'failed', times, verdicts, findings, tools, reason: `the second run (made before writing or proposing) failed: ${(error as Error).message}` };
    }
    for (const phase of ['assembly', 'model', 'runtime'] as const) times[phase] += again.times[phase];
    const difference = firstDifference(files, snapshotFiles(again.record, root, redactions));
    if (difference) {
      const timeoutMs = scenario.runtimeConfig.timeoutMs;
      const hint = instabilityHint(record, again.record, typeof timeoutMs === 'number' ? timeoutMs : undefined);
      return { ...base, status: 'unstable', times, verdicts: [], findings, tools, reason: unstableReason(difference, hint) };
    }
  }
  // Measured before anything is written: the committed snapshot is the baseline.
  const sdk = await sdkSize(snapshotsDir, folder, target.language, files, verdicts);
  // A run that failed is never written or proposed: its transcript must not become the expected one.
  const written = (v: FileVerdict) => !problems && decide(v.status, update, ci) === 'write';
  const propose = async (v: FileVerdict) =>
    proposals.push({ path: v.path, action: v.proposed === undefined ? 'delete' : 'write', status: v.status, base: await snapshotFingerprint(snapshotsDir, v.path), ...(v.proposed !== undefined ? { proposed: v.proposed } : {}) });
  const toWrite = verdicts.filter(written);
  // Proposed before anything is written: a write that fails leaves every change of the pair proposed.
  for (const v of verdicts) if (!problems && decide(v.status, update, ci) === 'propose') await propose(v);
  if (toWrite.length > 0) await sweepFolder(snapshotsDir, folder);
  for (const [i, v] of toWrite.entries()) {
    try {
      await applyVerdict(snapshotsDir, v);
    } catch (error) {
      for (const rest of toWrite.slice(i)) await propose(rest);
      throw error;
    }
  }
  const status = problems ? 'failed' : verdicts.every((v) => v.status === 'same') ? 'pass' : verdicts.every((v) => v.status === 'same' || written(v)) ? 'updated' : 'mismatch';
  return { ...base, status, times, verdicts, findings, tools, ...(problems ? { reason: problems } : {}), ...(sdk ? { sdk } : {}) };
}

/** The size of the pair's SDK block and of its committed snapshot, when the model read one. */
async function sdkSize(snapshotsDir: string, folder: string, language: keyof typeof SDK_FILE, files: SnapshotFiles, verdicts: readonly FileVerdict[]): Promise<SdkSize | undefined> {
  const name = SDK_FILE[language];
  const current = files.get(name);
  if (current === undefined) return undefined;
  const verdict = verdicts.find((v) => v.path === `${folder}/${name}`);
  const committed =
    verdict?.status === 'same' ? current : verdict?.status === 'changed' ? (await snapshotFolder(snapshotsDir).read(verdict.path))?.toString('utf8') : undefined;
  return measureSdk(language, current, committed);
}

/** Snapshot folders in the selection that no scenario × declared runtime produces. */
async function obsoleteFolders(snapshotsDir: string, scenarios: readonly Scenario[], selection: Selection): Promise<string[]> {
  const declared = new Set(scenarios.flatMap((s) => s.runtimes.map((r) => `${s.name}/${r}`)));
  return (await snapshotFolders(snapshotsDir)).filter((folder) => {
    const [scenario, runtime] = folder.split('/') as [string, string];
    return !declared.has(folder) && inSelection(selection, scenario, runtime);
  });
}
