import { DEFAULT_PYTHON_FLOOR, type PythonVersion } from '../../codemode/index.js';
import { importPlugins } from '../assembly/plugin-import.js';
import { loadProjectHost } from '../assembly/project-host.js';
import type { RuntimeTarget } from '../assembly/runtimes.js';
import type { SdkSize } from '../cache/token-counter.js';
import { cacheLine } from '../cache/verdict-cache.js';
import { type Finding, type PairRun, runChecks, viewOfRecord } from '../checks/index.js';
import { KnownFindings } from '../checks/known.js';
import { stubMatrix } from '../checks/stub-validity.js';
import { pairTools, toolCoverage } from '../checks/tool-coverage.js';
import { KNOWN } from '../findings.js';
import { GuardedFolder } from '../guarded/folder.js';
import { usesInterpreters } from '../languages/index.js';
import { drivePairs, loadPairs } from '../pairs/drive.js';
import { type OneRun, type PhaseTimes, runOne } from '../pairs/run-one.js';
import { inSelection, type Pair, type Selection, selectPairs } from '../pairs/select.js';
import type { ProbeVerdict } from '../probe/adversarial.js';
import type { Project } from '../project/root.js';
import { type Activity, type PairActivity, UNWATCHED } from '../report/live-line.js';
import type { PairResult, Proposal, RunOutcome, RunSteps } from '../report/outcome.js';
import { notRunLine, progressLine, stepsLine } from '../report/progress.js';
import { sdkBudgetFindings, sdkCost } from '../report/sdk-cost.js';
import { concordFolder } from '../report/write.js';
import { type RuntimeName, runtimeLanguage } from '../runtime-names.js';
import { scenarioForLanguage } from '../scenario/recording.js';
import type { Scenario } from '../scenario/types.js';
import { type ProjectHost, Session } from '../session.js';
import { decide, type UpdateMode, type WritePolicy } from '../snapshot/decide.js';
import { newRunId } from '../snapshot/pending.js';
import type { Redaction } from '../snapshot/redactions.js';
import {
  applyVerdict,
  compareFolder,
  type FileVerdict,
  readCommitted,
  snapshotFingerprint,
  snapshotFolder,
  snapshotFolders,
  sweepFolder,
} from '../snapshot/store.js';
import { SDK_FILE, type SnapshotFiles, snapshotFiles } from '../snapshot/transcript.js';
import { fromProjectRoot } from '../text/project-paths.js';
import { type NotRun, runtimesNotRun } from './availability.js';
import { type FinishOptions, finishRun } from './finish.js';
import { RunProposals } from './proposals.js';
import { runSteps } from './run-steps.js';
import { firstDifference, instabilityHint, unstableReason } from './stability.js';

export interface GateOptions {
  /**
   * The project (`openProject`): `scenarios/`, `snapshots/` and `.concord/` are found below its root unless
   * overridden, and its concord.config.yml sets what the options below leave out: the floor, the runtimes,
   * `timeoutMs`, redactions, the SDK budget, tool coverage and the Pyodide releases of the stub matrix.
   */
  project: Project;
  scenariosDir?: string;
  snapshotsDir?: string;
  pendingRoot?: string;
  /** Where `.concord/report.md` is written below (default: the project's root). */
  reportRoot?: string;
  selection: Selection;
  /** `--skip-runtime`: runtimes left out on purpose (their pairs are skipped, and the summary says so). */
  skipRuntimes?: readonly RuntimeName[];
  /**
   * `--floor`: the oldest CPython the Python SDK must serve; every renderer in the run must be pinned to it (default:
   * the project's floor, else 3.9).
   */
  floor?: PythonVersion;
  update: UpdateMode;
  /** Pairs run at the same time (default 1); output and snapshots are the same as a serial run's. */
  jobs?: number;
  /** In CI nothing under the snapshots folder is written; proposals go to the pending folder. */
  ci: boolean;
  /** Reuse and store verdicts in `<root>/.concord/cache/` (stub compile and import, pyright); default false. */
  cache?: boolean;
  /**
   * With `cache`: the folder whose `.concord/cache/` is used instead of the project root's, e.g. one shared by gates of
   * copies of one project.
   */
  cacheRoot?: string;
  /** Internal, for benches and tests not about stability: false never runs a pair twice before writing or proposing. */
  stabilityRerun?: boolean;
  /** `--results FILE`: also write the run as JSON for `concord merge`. */
  resultsFile?: string;
  /** `--reporter junit`: the JUnit file, its place checked before the run (`junitTarget`). */
  junit?: FinishOptions['junit'];
  /**
   * Annotate the pull request on GitHub Actions, and append the step summary when `GITHUB_STEP_SUMMARY` is set (the CLI
   * does both).
   */
  github?: boolean;
  color: boolean;
  out(line: string): void;
  /** Told which pairs run and what each waits for (the CLI's live line on a terminal); by default nobody watches. */
  activity?: Activity;
}

/** One gate run, each datum once: what the report, the results file and the summary were made from, and the verdict. */
export interface GateResult extends RunOutcome {
  ok: boolean;
  probes: ProbeVerdict[];
  stepTimes: RunSteps['times'];
  /** The written `.concord/report.md`. */
  reportFile: string;
}

interface GatePaths {
  scenariosDir: string;
  snapshotsDir: string;
  pendingRoot: string;
  reportRoot: string;
}

/**
 * What a run is about to do once its input is read: the selection with the project's defaults, its pairs, the floor and
 * the runtimes that will not run.
 */
interface RunPlan {
  scenarios: Scenario[];
  selection: Selection;
  pairs: Pair[];
  floor: PythonVersion;
  notRun: Map<RuntimeName, NotRun>;
  /** Runtimes only there by default that cannot run here: not run, not counted, named once in the summary. */
  leftOut: RuntimeName[];
  /** The host that boots the project's apps; none: concord assembles them. */
  host: ProjectHost | undefined;
}

/**
 * Runs the selected scenario × runtime pairs, compares them with the snapshots and reports, in phases: read
 * the input, run the pairs and the run-level steps, judge obsolete folders, keep the proposals, finish.
 */
export async function runGate(options: GateOptions): Promise<GateResult> {
  const { project } = options;
  const paths: GatePaths = {
    scenariosDir: options.scenariosDir ?? project.scenariosDir,
    snapshotsDir: options.snapshotsDir ?? project.snapshotsDir,
    pendingRoot: options.pendingRoot ?? project.pendingRoot,
    reportRoot: options.reportRoot ?? project.root,
  };
  const { update, ci, out } = options;
  if (ci && update !== 'none')
    out(
      `CI is set: --update=${update} is ignored; nothing under snapshots/ is written, proposals go to ${paths.pendingRoot}`,
    );
  const plan = await planRun(options, paths);
  const runId = newRunId();
  const proposals = new RunProposals(paths.pendingRoot, runId, out);
  const ran = await runPairs(options, plan, paths, proposals);
  const obsolete = await settleObsolete(paths.snapshotsDir, plan, options, proposals.list).catch((error: unknown) =>
    proposals.rescue(error),
  );
  const pendingDir = await proposals.keep();
  const outcome = {
    runId,
    floor: plan.floor,
    ...ran,
    obsolete,
    update,
    ci,
    proposals: proposals.list,
    ...(pendingDir ? { pendingDir } : {}),
    ...(plan.leftOut.length > 0 ? { leftOut: plan.leftOut } : {}),
  } satisfies RunOutcome;
  const finished = await finishRun(outcome, {
    reportRoot: paths.reportRoot,
    ci,
    color: options.color,
    out,
    ...(options.resultsFile
      ? { results: { file: options.resultsFile, root: project.root, selection: plan.selection } }
      : {}),
    ...(options.github
      ? { github: { scenarioFiles: Object.fromEntries(plan.pairs.map((p) => [p.scenario.name, p.scenario.file])) } }
      : {}),
    ...(options.junit ? { junit: options.junit } : {}),
  });
  return { ...outcome, ...finished };
}

/**
 * Reads the input: the folders concord writes into, the scenarios and their plugins, the selection, the runtimes that
 * will not run.
 */
async function planRun(options: GateOptions, paths: GatePaths): Promise<RunPlan> {
  const { out, project } = options;
  // Folders concord writes into must be real folders before anything runs: a link or a file there is bad input.
  for (const folder of [
    snapshotFolder(paths.snapshotsDir),
    concordFolder(paths.reportRoot),
    new GuardedFolder(paths.pendingRoot, '.concord/pending'),
  ])
    await folder.check();
  const loaded = await loadPairs(project, options.selection, paths.scenariosDir);
  const { scenarios, selection } = loaded;
  // A plugin or host that cannot be imported is the user's input to fix: one error at its place, before any pair runs.
  await importPlugins([...new Set(loaded.pairs.map((p) => p.scenario))]);
  const host = await loadProjectHost(project);
  const { shard } = selection;
  if (shard && loaded.pairs.length === 0) {
    const whole = selectPairs(scenarios, { ...selection, shard: undefined }).length;
    out(
      `--shard ${shard.index}/${shard.count}: none of the ${whole} scenario × runtime pair(s) of the selection falls in this shard; nothing to run here`,
    );
  }
  // The config's floor was checked against the supported versions when it was read.
  const floor = options.floor ?? (project.config.floor as PythonVersion | undefined) ?? DEFAULT_PYTHON_FLOOR;
  const { notRun, leftOut } = await runtimesNotRun({
    pairs: loaded.pairs,
    skip: options.skipRuntimes ?? [],
    ci: options.ci,
    snapshotsDir: paths.snapshotsDir,
    named: selection.runtimes,
    out,
  });
  const pairs = loaded.pairs.filter((p) => !leftOut.includes(p.runtime));
  return { scenarios, selection, pairs, floor, notRun, leftOut, host };
}

type RunPairs = Pick<RunOutcome, 'pairs' | 'runFindings' | 'coverage' | 'matrix' | 'interpreters' | 'absent'> &
  Pick<GateResult, 'probes' | 'stepTimes'>;

/** A pair as the run leaves it: its result, the proposals it made, and whether its runtime did not run here at all. */
interface DrivenPair {
  result: PairResult;
  own: Proposal[];
  didNotRun?: true;
}

/**
 * Runs the pairs, then once per run on the runtimes they kept warm the renderer floor and the adversarial
 * probe, all on one session, which is stopped once (its runtimes, pyright, interpreters, cache writes).
 */
async function runPairs(
  options: GateOptions,
  plan: RunPlan,
  paths: GatePaths,
  proposals: RunProposals,
): Promise<RunPairs> {
  const { out, color, update, ci, project } = options;
  const { config } = project;
  // What the run's apps and checks share (pooled runtimes, the parsed scenarios, the verdict cache, pyright,
  // the interpreters), owned by this run alone and stopped once, whatever happens.
  await using session = new Session({
    ...(options.cache ? { cacheRoot: options.cacheRoot ?? project.root } : {}),
    ...(config.pyodide?.versions ? { pyodides: config.pyodide.versions } : {}),
    ...(plan.host ? { host: plan.host } : {}),
  });
  const { cache } = session;
  // The interpreters of the stub matrix start (the Pyodide one boots) while the first pairs run.
  if (plan.pairs.some((p) => !plan.notRun.has(p.runtime) && usesInterpreters(runtimeLanguage(p.runtime))))
    await session.startInterpreters();
  const run: PairRunContext = {
    session,
    snapshotsDir: paths.snapshotsDir,
    root: project.root,
    policy: { update, ci },
    rerun: options.stabilityRerun !== false,
    floor: plan.floor,
    redactions: config.redactions ?? [],
    known: new KnownFindings(config.known),
  };
  const pairs = await drivePairsOf(options, plan, run, proposals);
  // Once per run, on the runtimes the pairs kept warm: the renderer floor and the adversarial probe, through the
  // apps that ran (an app that did not start has said why on its pair's line; booting it again says it again).
  const ran = plan.pairs.filter((p) =>
    pairs.some((r) => r.scenario === p.scenario.name && r.runtime === p.runtime && r.tools !== undefined),
  );
  const steps = await runSteps(ran, new Set(plan.notRun.keys()), plan.floor, session);
  steps.findings.push(...sdkBudgetFindings(sdkCost(pairs), config.sdkBudget, session.tokens.missing));
  steps.findings = [...run.known.apply(steps.findings), ...run.known.unmet(KNOWN)];
  for (const probe of steps.probes) probe.findings = run.known.apply(probe.findings);
  out(stepsLine(steps, color));
  if (cache) {
    await cache.prune();
    out(cacheLine(cache));
  }
  // The report reads the inventory's interpreters: they are taken before the inventory is disposed.
  // In pair order, whatever order the pairs finished in (--jobs): the reports read the same on every run.
  const cells = stubMatrix(session);
  const matrix = pairs.flatMap((r) => cells.filter((c) => c.scenario === r.scenario && c.runtime === r.runtime));
  const inventory =
    matrix.length > 0 || steps.probes.some((p) => usesInterpreters(p.language)) ? await session.inventory() : undefined;
  return {
    pairs,
    coverage: toolCoverage(pairs, config.coverage?.uncalled),
    matrix,
    ...(inventory ? { interpreters: inventory.interpreters, absent: inventory.absent } : {}),
    runFindings: steps.findings,
    probes: steps.probes,
    stepTimes: steps.times,
    ...(session.tokens.missing !== undefined ? { sdkTokensMissing: session.tokens.missing } : {}),
  };
}

/**
 * Every pair of the plan, side by side on the shared runtimes. Each pair's proposals join the run's as it finishes,
 * so a failure keeps them; once all are done they are put in pair order, so the output and every file written are
 * the same as a serial run's.
 */
async function drivePairsOf(
  { out, color, jobs, activity: watching = UNWATCHED }: GateOptions,
  plan: RunPlan,
  run: PairRunContext,
  proposals: RunProposals,
): Promise<PairResult[]> {
  const finished = await drivePairs({
    session: run.session,
    pairs: plan.pairs,
    jobs: jobs ?? 1,
    notRun: {
      runtimes: plan.notRun,
      result: ({ scenario, runtime }, notRun): DrivenPair => ({
        result: {
          scenario: scenario.name,
          runtime,
          status: notRun.status,
          times: { assembly: 0, model: 0, runtime: 0, checks: 0 },
          verdicts: [],
          findings: [],
          reason: notRun.reason,
        },
        own: [],
        didNotRun: true,
      }),
    },
    run: async ({ scenario, target }): Promise<DrivenPair> => {
      const own: Proposal[] = [];
      const activity = watching.begin(`${scenario.name} × ${target.name}`);
      const result = await runPair(run, scenario, target, own, activity)
        .catch((error: unknown) => {
          proposals.list.push(...own);
          return proposals.rescue(error);
        })
        .finally(() => activity.end());
      proposals.list.push(...own);
      return { result, own };
    },
    settled: ({ result, didNotRun }) => out(didNotRun ? notRunLine(result, color) : progressLine(result, color)),
  });
  const pairs = finished.map((f) => f.result);
  proposals.list.splice(0, proposals.list.length, ...finished.flatMap((f) => f.own));
  proposals.judged(pairs);
  return pairs;
}

/** Obsolete folders of the selection: removed when the run writes everything, else proposed for deletion. */
async function settleObsolete(
  snapshotsDir: string,
  { scenarios, selection }: RunPlan,
  policy: WritePolicy,
  proposals: Proposal[],
): Promise<string[]> {
  const obsolete = await obsoleteFolders(snapshotsDir, scenarios, selection);
  for (const folder of obsolete) {
    if (decide('obsolete', policy) === 'write') await applyVerdict(snapshotsDir, { path: folder, status: 'obsolete' });
    else
      proposals.push({
        path: folder,
        action: 'delete',
        status: 'obsolete',
        base: await snapshotFingerprint(snapshotsDir, folder),
      });
  }
  return obsolete;
}

/** What every pair of one gate run shares: where snapshots go, how differences are treated, the checks' floor. */
interface PairRunContext {
  session: Session;
  snapshotsDir: string;
  /** The project root, which snapshots name as `<root>`. */
  root: string;
  policy: WritePolicy;
  /** Run a pair twice before writing or proposing a difference, so an unstable pair never becomes a snapshot. */
  rerun: boolean;
  floor: PythonVersion;
  redactions: readonly Redaction[];
  /** The findings the project knows of: notes, not failures. */
  known: KnownFindings;
}

/** Runs one pair, checks it, compares it with its snapshots and writes or proposes the differences (into `proposals`). */
async function runPair(
  run: PairRunContext,
  scenario: Scenario,
  target: RuntimeTarget,
  proposals: Proposal[],
  activity: PairActivity,
): Promise<PairResult> {
  const { session, snapshotsDir, root, policy, redactions } = run;
  const runtime = target.name;
  const base = { scenario: scenario.name, runtime } as const;
  let one;
  const assembling = performance.now();
  try {
    // A recorded scenario replays (and is checked against) the recording of this runtime's language.
    scenario = scenarioForLanguage(scenario, target.language, root);
    one = await runOne(scenario, target, { phase: activity.phase });
  } catch (error) {
    // The time it took to fail is the assembly's: a plugin that never started shows the boot's whole wait.
    const times = { assembly: performance.now() - assembling, model: 0, runtime: 0, checks: 0 };
    const reason = fromProjectRoot((error as Error).message, root);
    return { ...base, status: 'failed', times, verdicts: [], findings: [], reason };
  }
  const { record, times } = one;
  activity.phase('the checks');
  const tools = await pairTools(record, session);
  const files = snapshotFiles(record, root, redactions);
  const findings = run.known.apply(await checkPair(run, { scenario, runtime: target, record, files }, times));
  const errors = findings.filter((f) => f.severity === 'error');
  const problems = fromProjectRoot(
    [record.failure, ...errors.map((f) => `${f.check}: ${f.message}`)].filter(Boolean).join('\n'),
    root,
  );
  const folder = `${scenario.name}/${runtime}`;
  const verdicts = await compareFolder(snapshotsDir, folder, files);
  // Before anything is written or proposed, the pair runs once more: a transcript that two runs do not agree
  // on would be blessed only to fail the next run. Pairs that agree with their snapshots do not pay for this.
  if (run.rerun && !problems && verdicts.some((v) => decide(v.status, policy) !== 'keep')) {
    const unsettled = await runAgain(run, scenario, target, one, files, (what) =>
      activity.phase(`the second run (made before writing or proposing): ${what}`),
    );
    if (unsettled !== undefined)
      return { ...base, ...unsettled, times, verdicts: unsettled.status === 'failed' ? verdicts : [], findings, tools };
  }
  // Measured before anything is written: the committed snapshot is the baseline.
  const measured = await sdkSize(snapshotsDir, folder, target.language, files, verdicts, session);
  const sdk = measured && tools.registered.length > 0 ? { ...measured, tools: tools.registered.length } : measured;
  // A run that failed is never written or proposed: its transcript must not become the expected one.
  const written = problems ? [] : await settleVerdicts(run, folder, verdicts, proposals);
  const status = problems
    ? 'failed'
    : verdicts.every((v) => v.status === 'same')
      ? 'pass'
      : verdicts.every((v) => v.status === 'same' || written.includes(v))
        ? 'updated'
        : 'mismatch';
  return {
    ...base,
    status,
    times,
    verdicts,
    findings,
    tools,
    ...(problems ? { reason: problems } : {}),
    ...(sdk ? { sdk } : {}),
  };
}

/** Every check on one pair's run, timed as its checks phase (a wait for the session's interpreters as its boot). */
async function checkPair({ session, floor }: PairRunContext, pair: PairRun, times: PhaseTimes): Promise<Finding[]> {
  if (usesInterpreters(pair.runtime.language)) {
    // Waiting for the interpreters the session started is their boot, not this pair's checks.
    const waiting = performance.now();
    await session.interpretersReady();
    times.boot = (times.boot ?? 0) + (performance.now() - waiting);
  }
  const started = performance.now();
  const { findings } = await runChecks({ view: viewOfRecord(pair.record), floor, session, pair });
  times.checks = performance.now() - started;
  return findings;
}

/**
 * The pair run a second time, before anything of it is written or proposed: undefined when both runs agree, else the
 * pair's status (`failed` when the second run could not run, `unstable` when it differs) and why.
 */
async function runAgain(
  { root, redactions }: PairRunContext,
  scenario: Scenario,
  target: RuntimeTarget,
  first: OneRun,
  files: SnapshotFiles,
  phase: (waitingFor: string) => void,
): Promise<{ status: 'failed' | 'unstable'; reason: string } | undefined> {
  let again: OneRun;
  try {
    again = await runOne(scenario, target, { phase });
  } catch (error) {
    return {
      status: 'failed',
      reason: `the second run (made before writing or proposing) failed: ${(error as Error).message}`,
    };
  }
  for (const phase of ['assembly', 'model', 'runtime'] as const) first.times[phase] += again.times[phase];
  const difference = firstDifference(files, snapshotFiles(again.record, root, redactions));
  if (!difference) return undefined;
  const timeoutMs = scenario.runtimeConfig.timeoutMs;
  const hint = instabilityHint(first.record, again.record, typeof timeoutMs === 'number' ? timeoutMs : undefined);
  return { status: 'unstable', reason: unstableReason(difference, hint) };
}

/**
 * Writes what the policy writes and proposes what it proposes of a pair that passed its checks; returns the verdicts
 * written. Everything is proposed before anything is written: a write that fails leaves every change proposed.
 */
async function settleVerdicts(
  { snapshotsDir, policy }: PairRunContext,
  folder: string,
  verdicts: readonly FileVerdict[],
  proposals: Proposal[],
): Promise<FileVerdict[]> {
  const propose = async (v: FileVerdict) =>
    proposals.push({
      path: v.path,
      action: v.proposed === undefined ? 'delete' : 'write',
      status: v.status,
      base: await snapshotFingerprint(snapshotsDir, v.path),
      ...(v.proposed !== undefined ? { proposed: v.proposed } : {}),
    });
  const toWrite = verdicts.filter((v) => decide(v.status, policy) === 'write');
  for (const v of verdicts) if (decide(v.status, policy) === 'propose') await propose(v);
  if (toWrite.length > 0) await sweepFolder(snapshotsDir, folder);
  for (const [i, v] of toWrite.entries()) {
    try {
      await applyVerdict(snapshotsDir, v);
    } catch (error) {
      for (const rest of toWrite.slice(i)) await propose(rest);
      throw error;
    }
  }
  return toWrite;
}

/** The size of the pair's SDK block and of its committed snapshot, when the model read one. */
async function sdkSize(
  snapshotsDir: string,
  folder: string,
  language: keyof typeof SDK_FILE,
  files: SnapshotFiles,
  verdicts: readonly FileVerdict[],
  { tokens }: Session,
): Promise<SdkSize | undefined> {
  const name = SDK_FILE[language];
  const current = files.get(name);
  if (current === undefined) return undefined;
  const verdict = verdicts.find((v) => v.path === `${folder}/${name}`);
  const committed =
    verdict?.status === 'same'
      ? current
      : verdict?.status === 'changed'
        ? await readCommitted(snapshotsDir, verdict.path)
        : undefined;
  return tokens.measureSdk(language, current, committed);
}

/** Snapshot folders in the selection that no scenario × declared runtime produces. */
async function obsoleteFolders(
  snapshotsDir: string,
  scenarios: readonly Scenario[],
  selection: Selection,
): Promise<string[]> {
  const declared = new Set(scenarios.flatMap((s) => s.runtimes.map((r) => `${s.name}/${r}`)));
  return (await snapshotFolders(snapshotsDir)).filter((folder) => {
    const [scenario, runtime] = folder.split('/') as [string, string];
    return !declared.has(folder) && inSelection(selection, scenario, runtime);
  });
}
