import { Document } from 'yaml';
import type { Language } from '../../runtimes/seam/types.js';
import { loadProjectHost } from '../assembly/project-host.js';
import { unavailableRuntimes } from '../assembly/runtimes.js';
import { keyExposure } from '../model/key-exposure.js';
import { LiveModel } from '../model/live.js';
import { describeEndpoint, type EndpointOptions } from '../model/openai.js';
import { drivePairs, loadPairs, type ReadyPair } from '../pairs/drive.js';
import { runOne } from '../pairs/run-one.js';
import type { Pair, Selection } from '../pairs/select.js';
import type { Project } from '../project/root.js';
import { scenarioForLanguage, stepData } from '../scenario/recording.js';
import type { RuntimeName, Scenario, ScriptStep } from '../scenario/types.js';
import { Session } from '../session.js';
import { renderDiff, textDiff } from '../text/diff.js';
import { COLOR, paint } from '../text/paint.js';
import { yamlText } from '../text/yaml-text.js';
import { UserError } from '../user-error.js';

export interface DriftOptions {
  /**
   * The project: its scenarios, and the `runtimes` and `timeoutMs` of its concord.config.yml where the selection and a
   * scenario set none.
   */
  project: Project;
  selection: Selection;
  endpoint: EndpointOptions;
  /** Run `python` programs that share concord's account while it holds the key (see keyExposure). */
  allowKeyExposure?: boolean;
  color: boolean;
  out(line: string): void;
}

/** Live mode refused before anything ran (exit 2). */
export class DriftRefused extends UserError {}

export type DriftStatus = 'same' | 'drift' | 'failed' | 'skipped';

export interface DriftResult {
  scenario: string;
  runtime: RuntimeName;
  status: DriftStatus;
  /** What departed, or why the pair could not be judged, in one line. */
  reason?: string;
  /** The recorded and the live conversation as a unified diff. */
  diff?: string;
}

/**
 * Runs the selected scenario × runtime pairs against the live model instead of their scripts and reports
 * where each live conversation departs from the recorded (or hand-written) one. Writes nothing.
 */
export async function runDrift(options: DriftOptions): Promise<DriftResult[]> {
  const { out, color } = options;
  const { pairs } = await loadPairs(options.project, options.selection);
  const exposure = options.allowKeyExposure
    ? undefined
    : keyExposure(
        pairs.map((p) => p.runtime),
        options.endpoint.apiKey !== undefined,
      );
  if (exposure) throw new DriftRefused(exposure);
  const unavailable = await unavailableRuntimes(new Set(pairs.map((p) => p.runtime)));
  out(
    `drift watch: live answers from ${options.endpoint.model} at ${describeEndpoint(options.endpoint.baseUrl)}; snapshots are not read or written`,
  );
  let results: DriftResult[];
  {
    const host = await loadProjectHost(options.project);
    await using session = new Session(host === undefined ? {} : { host });
    results = await drivePairs({
      session,
      pairs,
      notRun: {
        runtimes: unavailable,
        result: ({ scenario, runtime }, reason): DriftResult => ({
          scenario: scenario.name,
          runtime,
          status: 'skipped',
          reason: `${runtime} skipped: ${reason}`,
        }),
      },
      run: (ready) => watchOne(ready, options, session),
      settled: (result) => out(driftLine(result, color)),
    });
  }
  const count = (s: DriftStatus) => results.filter((r) => r.status === s).length;
  out('');
  out(
    `${results.length} run(s): ${count('same')} as recorded, ${count('drift')} drifted, ${count('failed')} failed, ${count('skipped')} skipped`,
  );
  return results;
}

async function watchOne(
  { scenario, target }: ReadyPair<Pair>,
  options: DriftOptions,
  session: Session,
): Promise<DriftResult> {
  const base = { scenario: scenario.name, runtime: target.name };
  let expected: Scenario;
  try {
    expected = scenarioForLanguage(scenario, target.language, options.project.root);
  } catch (error) {
    return { ...base, status: 'failed', reason: (error as Error).message.split('\n')[0]! };
  }
  const live = new LiveModel(options.endpoint, target.language);
  const handle = session.registerLiveModel(live);
  let failure: string | undefined;
  try {
    const { record } = await runOne(scenario, target, { live: handle.token });
    failure = record.failure;
  } catch (error) {
    failure = (error as Error).message;
  } finally {
    handle.release();
  }
  if (live.failureKind === 'endpoint') return { ...base, status: 'failed', reason: live.failure! };
  const departure = compareSteps(expected, live.steps, target.language, options);
  if (departure)
    return {
      ...base,
      status: 'drift',
      ...departure,
      ...(failure ? { reason: `${departure.reason}; then: ${failure.split('\n')[0]}` } : {}),
    };
  if (failure)
    return {
      ...base,
      status: 'drift',
      reason: `the live conversation matched the recording so far, then: ${failure.split('\n')[0]}`,
    };
  return { ...base, status: 'same' };
}

/** The first step where the live conversation departs from the expected one, and both as a diff. */
function compareSteps(
  expected: Scenario,
  live: readonly ScriptStep[],
  language: Language,
  options: DriftOptions,
): { reason: string; diff: string } | undefined {
  // What the model said and wrote is compared; result_includes are the script's checks on the runtime, not the model's
  // words.
  const want = expected.script.map((step) => comparable(step, language));
  const got = live.map((step) => comparable(step, language));
  const index = want.findIndex((step, i) => JSON.stringify(step) !== JSON.stringify(got[i]));
  const at = index === -1 ? (got.length > want.length ? want.length : -1) : index;
  if (at === -1) return undefined;
  const kind = (steps: readonly ScriptStep[]) => steps[at]?.kind ?? 'nothing';
  const source = expected.scriptFile ?? expected.file;
  const { root } = options.project;
  const shown = source.startsWith(root + '/') ? source.slice(root.length + 1) : source;
  const diff = textDiff(
    { before: `${shown} (recorded)`, after: `${options.endpoint.model} (live)` },
    asYaml(want),
    asYaml(got),
  );
  return {
    reason: `step ${at + 1} departs: recorded ${kind(expected.script)}, live ${kind(live)}`,
    diff: renderDiff(diff, options.color),
  };
}

/** Steps as the scenario's YAML writes them, for the diff. */
const asYaml = (steps: unknown): string => yamlText(new Document(steps), { lineWidth: 0, blockQuote: 'literal' });

function comparable(step: ScriptStep, language: Language): Record<string, unknown> {
  return stepData(step.kind === 'assistant' ? { ...step, resultIncludes: [] } : step, language);
}

const MARK: Record<DriftStatus, [string, number]> = {
  same: ['✓ same   ', COLOR.green],
  drift: ['~ drift  ', COLOR.yellow],
  failed: ['✗ failed ', COLOR.red],
  skipped: ['- skipped', COLOR.yellow],
};

function driftLine(r: DriftResult, color: boolean): string {
  const [mark, tint] = MARK[r.status];
  const detail = [r.reason, r.diff]
    .filter(Boolean)
    .flatMap((text) => text!.split('\n'))
    .map((line) => `\n    ${line}`)
    .join('');
  return `${paint(color, tint, mark)} ${r.scenario} × ${r.runtime}${detail}`;
}
