import { join } from 'node:path';
import { DEFAULT_PYTHON_FLOOR } from '../../codemode/tools/config.js';
import type { PythonVersion } from '../../codemode/tools/types.js';
import { containerUnavailable } from '../../runtimes/cpython/container-launcher.js';
import { CPYTHON_DEFAULTS } from '../../runtimes/cpython/runtime.js';
import { disposeSharedRuntimes } from '../../runtimes/seam/pool.js';
import { runtimeTarget } from '../assembly/runtimes.js';
import { CHECKS } from '../checks/index.js';
import { stubValidity } from '../checks/stub-validity.js';
import type { Finding } from '../checks/types.js';
import { disposeSharedInventory, sharedInventory } from '../interpreters/inventory.js';
import { GuardedFolder } from '../guarded/folder.js';
import { concordFolder, writeReport } from '../report/write.js';
import { loadScenarios } from '../scenario/discover.js';
import { RUNTIME_NAMES, type RuntimeName, type Scenario } from '../scenario/types.js';
import { newRunId, writePending, type PendingChange } from '../snapshot/pending.js';
import { applyVerdict, compareFolder, snapshotFingerprint, snapshotFolder, snapshotFolders, sweepFolder, type FileVerdict } from '../snapshot/store.js';
import { rendererFloorFindings } from '../skew/renderer-floor.js';
import { snapshotFiles } from '../snapshot/transcript.js';
import { renderDiff } from '../text/diff.js';
import { ms, progressLine, summaryTable, type PairResult } from './report.js';
import { runOne } from './run-one.js';
import { inSelection, selectPairs, type Selection } from './select.js';

export type UpdateMode = 'none' | 'new' | 'all';

export interface GateOptions {
  /** The package root: `scenarios/`, `snapshots/` and `.concord/` are found below it unless overridden. */
  root: string;
  scenariosDir?: string;
  snapshotsDir?: string;
  pendingRoot?: string;
  /** Where `.concord/report.md` is written below (default `root`). */
  reportRoot?: string;
  selection: Selection;
  /** The runtime's time budget for scenarios that set none (`timeoutMs` of `concord.config.yml`). */
  defaultTimeoutMs?: number;
  /** The oldest CPython the Python SDK must serve; every renderer in the run must be pinned to it (default 3.9). */
  floor?: PythonVersion;
  update: UpdateMode;
  /** In CI nothing under the snapshots folder is written; proposals go to the pending folder. */
  ci: boolean;
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
  /** Findings about the whole run, not one pair: the renderer floor against the configured floor. */
  runFindings: Finding[];
  /** The written `.concord/report.md`. */
  reportFile: string;
}

/** Runs the selected scenario × runtime pairs, compares them with the snapshots and reports. */
export async function runGate(options: GateOptions): Promise<GateResult> {
  const scenariosDir = options.scenariosDir ?? join(options.root, 'scenarios');
  const snapshotsDir = options.snapshotsDir ?? join(options.root, 'snapshots');
  const pendingRoot = options.pendingRoot ?? join(options.root, '.concord', 'pending');
  const { out, color } = options;
  const update: UpdateMode = options.ci ? 'none' : options.update;
  if (options.ci && options.update !== 'none') out(`CI is set: --update=${options.update} is ignored; nothing under snapshots/ is written, proposals go to ${pendingRoot}`);

  // Folders concord writes into must be real folders before anything runs: a link or a file there is bad input.
  for (const folder of [snapshotFolder(snapshotsDir), concordFolder(options.reportRoot ?? options.root), new GuardedFolder(pendingRoot, '.concord/pending')]) await folder.check();
  const scenarios = await loadScenarios(scenariosDir, options.root);
  const pairs = selectPairs(scenarios, options.selection);
  const floor = options.floor ?? DEFAULT_PYTHON_FLOOR;
  // Judged on every selected scenario whatever runtimes run: a floor mismatch is an error of its composition.
  const runFindings = rendererFloorFindings([...new Set(pairs.map((p) => p.scenario))], floor);
  const skipped = await unavailableRuntimes(new Set(pairs.map((p) => p.runtime)), out);
  const runId = newRunId();
  const results: PairResult[] = [];
  const proposals: Array<PendingChange & { proposed?: string }> = [];
  let reportFile: string;
  // The newest run wins: older proposals for the folders this run compared are dropped from pending.
  const compared = (path: string) => results.some((r) => r.verdicts.length > 0 && path.startsWith(`${r.scenario}/${r.runtime}/`));
  const keep = () => writePending(pendingRoot, runId, proposals, compared);
  // A snapshot that cannot be written or read (a read-only folder, a full disk, a link) must not cost the run its proposals.
  const keepingProposals = async (error: unknown): Promise<never> => {
    const kept = await keep().catch(() => undefined);
    if (kept) out(`the proposals of this run are kept in ${kept}; accept them with \`concord review\` once the problem is fixed`);
    throw error;
  };

  try {
    for (const { scenario, runtime } of pairs) {
      const reason = skipped.get(runtime);
      const result = reason
        ? ({ scenario: scenario.name, runtime, status: 'skipped', times: { assembly: 0, model: 0, runtime: 0, checks: 0 }, verdicts: [], findings: [], reason } satisfies PairResult)
        : await runPair(withDefaults(scenario, options), runtime, snapshotsDir, options.root, update, proposals).catch(keepingProposals);
      results.push(result);
      out(progressLine(result, color));
    }
    // The report reads the inventory's interpreters, so it is written before the inventory is disposed.
    const ran = new Set(results.map((r) => `${r.scenario}/${r.runtime}`));
    const matrix = stubValidity.matrix().filter((c) => ran.has(`${c.scenario}/${c.runtime}`));
    const inventory = matrix.length > 0 ? await sharedInventory() : undefined;
    reportFile = await writeReport(options.reportRoot ?? options.root, {
      runId,
      floor,
      pairs: results,
      matrix,
      ...(inventory ? { interpreters: inventory.interpreters, absent: inventory.absent } : {}),
      runFindings,
    });
  } finally {
    try {
      await disposeSharedRuntimes();
    } finally {
      await disposeSharedInventory();
    }
  }

  const obsolete = await obsoleteFolders(snapshotsDir, scenarios, options.selection).catch(keepingProposals);
  for (const folder of obsolete) {
    if (update === 'all') await applyVerdict(snapshotsDir, { path: folder, status: 'obsolete' }).catch(keepingProposals);
    else proposals.push({ path: folder, action: 'delete', status: 'obsolete', base: await snapshotFingerprint(snapshotsDir, folder).catch(keepingProposals) });
  }

  const pendingDir = await keep();
  const ok =
    results.every((r) => r.status === 'pass' || r.status === 'updated' || r.status === 'skipped') &&
    (obsolete.length === 0 || update === 'all') &&
    !runFindings.some((f) => f.severity === 'error');
  report(options, results, obsolete, update, pendingDir, ok, runFindings, reportFile);
  return { ok, results, obsolete, runId, runFindings, reportFile, ...(pendingDir ? { pendingDir } : {}) };
}

async function runPair(
  scenario: Scenario,
  runtime: RuntimeName,
  snapshotsDir: string,
  root: string,
  update: UpdateMode,
  proposals: Array<PendingChange & { proposed?: string }>,
): Promise<PairResult> {
  const target = runtimeTarget(runtime, scenario.runtimeConfig);
  const base = { scenario: scenario.name, runtime } as const;
  let one;
  try {
    one = await runOne(scenario, target);
  } catch (error) {
    return { ...base, status: 'failed', times: { assembly: 0, model: 0, runtime: 0, checks: 0 }, verdicts: [], findings: [], reason: (error as Error).message };
  }
  const { record, times } = one;
  const files = snapshotFiles(record, root);
  const started = performance.now();
  const findings: Finding[] = [];
  for (const check of CHECKS) {
    try {
      findings.push(...(await check.run({ scenario, runtime: target, record, files })));
    } catch (error) {
      findings.push({ check: check.id, severity: 'error', message: `the check itself failed: ${(error as Error).message}` });
    }
  }
  times.checks = performance.now() - started;

  const errors = findings.filter((f) => f.severity === 'error');
  const problems = [record.failure, ...errors.map((f) => `${f.check}: ${f.message}`)].filter(Boolean).join('\n');
  const folder = `${scenario.name}/${runtime}`;
  const verdicts = await compareFolder(snapshotsDir, folder, files);
  // A run that failed is never written or proposed: its transcript must not become the expected one.
  const written = (v: FileVerdict) => !problems && ((update === 'all' && v.status !== 'same') || (update === 'new' && v.status === 'new'));
  const propose = async (v: FileVerdict) =>
    proposals.push({ path: v.path, action: v.proposed === undefined ? 'delete' : 'write', status: v.status, base: await snapshotFingerprint(snapshotsDir, v.path), ...(v.proposed !== undefined ? { proposed: v.proposed } : {}) });
  const toWrite = verdicts.filter(written);
  // Proposed before anything is written: a write that fails leaves every change of the pair proposed.
  for (const v of verdicts) if (v.status !== 'same' && !problems && !written(v)) await propose(v);
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
  return { ...base, status, times, verdicts, findings, ...(problems ? { reason: problems } : {}) };
}

/** The scenario with the project's defaults filled in where it sets nothing itself. */
function withDefaults(scenario: Scenario, options: GateOptions): Scenario {
  if (options.defaultTimeoutMs === undefined || 'timeoutMs' in scenario.runtimeConfig) return scenario;
  return { ...scenario, runtimeConfig: { ...scenario.runtimeConfig, timeoutMs: options.defaultTimeoutMs } };
}

/** Runtimes that cannot run here, with the reason said once. */
async function unavailableRuntimes(wanted: Set<RuntimeName>, out: (line: string) => void): Promise<Map<RuntimeName, string>> {
  const skipped = new Map<RuntimeName, string>();
  if (wanted.has('python-container')) {
    const reason = await containerUnavailable(CPYTHON_DEFAULTS.image);
    if (reason) {
      skipped.set('python-container', `python-container skipped: ${reason}`);
      out(`python-container skipped: ${reason}`);
    } else {
      out(`python-container: runs in ${CPYTHON_DEFAULTS.image} (a Docker engine answers)`);
    }
  }
  return skipped;
}

/** Snapshot folders in the selection that no scenario × declared runtime produces. */
async function obsoleteFolders(snapshotsDir: string, scenarios: readonly Scenario[], selection: Selection): Promise<string[]> {
  const declared = new Set(scenarios.flatMap((s) => s.runtimes.map((r) => `${s.name}/${r}`)));
  return (await snapshotFolders(snapshotsDir)).filter((folder) => {
    const [scenario, runtime] = folder.split('/') as [string, string];
    return !declared.has(folder) && inSelection(selection, scenario, runtime);
  });
}

function report(
  options: GateOptions,
  results: PairResult[],
  obsolete: string[],
  update: UpdateMode,
  pendingDir: string | undefined,
  ok: boolean,
  runFindings: readonly Finding[],
  reportFile: string,
): void {
  const { out, color } = options;
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
  out(`report: ${reportFile} (the stub-validity matrix and every finding)`);
  out(ok ? 'gate: everything agrees' : 'gate: FAILED');
}
