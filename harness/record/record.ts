import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { type Node, parseDocument, type YAMLSeq } from 'yaml';
import type { Language } from '../../runtimes/seam/types.js';
import { loadProjectHost } from '../assembly/project-host.js';
import { unavailableRuntimes } from '../assembly/runtimes.js';
import { writeFileAtomic } from '../guarded/atomic.js';
import { countSecrets, scrubSecrets } from '../guarded/secret.js';
import { keyExposure } from '../model/key-exposure.js';
import { LiveModel } from '../model/live.js';
import { describeEndpoint, type EndpointOptions } from '../model/openai.js';
import { drivePairs, loadProjectScenarios, type ReadyPair } from '../pairs/drive.js';
import { runOne } from '../pairs/run-one.js';
import type { Project } from '../project/root.js';
import { RUNTIME_NAMES, type RuntimeName, runtimeLanguage } from '../runtime-names.js';
import { isUserTurnOnly } from '../scenario/load.js';
import { parseRecording, type Recording, recordingPath, renderRecording } from '../scenario/recording.js';
import type { Scenario, ScriptStep } from '../scenario/types.js';
import { Session } from '../session.js';
import { yamlText } from '../text/yaml-text.js';
import { UserError } from '../user-error.js';

export interface RecordOptions {
  project: Project;
  /** Scenario names; without them, every scenario whose conversation is not recorded yet. */
  scenarios?: readonly string[];
  /** Record only on these runtimes (one per language is used). */
  runtimes?: readonly RuntimeName[];
  force: boolean;
  endpoint: EndpointOptions;
  /** Run `python` programs that share concord's account while it holds the key (see keyExposure). */
  allowKeyExposure?: boolean;
  out(line: string): void;
}

/** Refused before anything ran (exit 2) or failed while recording (exit 1); in both cases nothing was written. */
export class RecordError extends UserError {
  constructor(message: string, exitCode: 1 | 2) {
    super(message, { exitCode });
  }
}

interface Job {
  scenario: Scenario;
  language: Language;
  runtime: RuntimeName;
}

/**
 * Runs each selected scenario against the live endpoint on one runtime per language it declares, and stores
 * each conversation beside the scenario for the gate to replay. All or nothing: files are written only once
 * every conversation reached its final answer.
 */
export async function record(options: RecordOptions): Promise<void> {
  const { project, out } = options;
  const shown = (file: string) => relative(project.root, file) || file;
  const scenarios = await loadProjectScenarios(project);
  const chosen = choose(scenarios, options.scenarios);
  // Unnamed scenarios are only completed: a language already recorded is kept.
  const jobs = chosen
    .flatMap((scenario) => jobsOf(scenario, options.runtimes))
    .filter((job) => options.scenarios !== undefined || !existsSync(recordingPath(job.scenario.file, job.language)));
  if (jobs.length === 0) {
    out(
      options.scenarios
        ? 'nothing to record: the selected scenarios declare none of the selected runtimes'
        : 'nothing to record: every scenario has a hand-written or recorded conversation (name one with --scenario and --force to record it again)',
    );
    return;
  }
  await refuseToStart(jobs, options, shown);
  out(`recording from ${options.endpoint.model} at ${describeEndpoint(options.endpoint.baseUrl)}`);
  let recorded: Array<Job & { recording: Recording; ms: number }>;
  {
    const host = await loadProjectHost(project);
    await using session = new Session(host === undefined ? {} : { host });
    recorded = await drivePairs({
      session,
      pairs: jobs,
      run: async (ready) => {
        const started = performance.now();
        const recording = await recordOne(ready, options, session);
        return { ...ready.pair, recording, ms: performance.now() - started };
      },
      settled: ({ scenario, runtime, language, recording, ms }) => {
        const calls = recording.script.filter((s) => s.kind === 'assistant').length;
        out(
          `✓ ${scenario.name} × ${runtime} (${language}): ${calls} run_code call(s) and a final answer, ${Math.round(ms)} ms`,
        );
      },
    });
  }

  await writeRecordings(recorded, out, shown);
  const names = [...new Set(recorded.map((r) => r.scenario.name))];
  out(`next: concord gate --scenario ${names.join(' ')} --update=new, then commit the scenario folder and snapshots/`);
}

/**
 * Why the recording must not start, as a RecordError: a file it would replace without --force, a model key that the
 * selected runtimes could expose, or a runtime that cannot run here (naming one of its language that can).
 */
async function refuseToStart(
  jobs: readonly Job[],
  options: RecordOptions,
  shown: (file: string) => string,
): Promise<void> {
  const replaced = await whatWouldBeReplaced(jobs, shown);
  if (replaced.length > 0 && !options.force) {
    throw new RecordError(
      `recording would replace:\n${replaced.map((line) => `  ${line}`).join('\n')}\n  hint: pass --force to replace them (the user turn, comments and the rest of each scenario file stay)`,
      2,
    );
  }
  const exposure = options.allowKeyExposure
    ? undefined
    : keyExposure(
        jobs.map((j) => j.runtime),
        options.endpoint.apiKey !== undefined,
      );
  if (exposure) throw new RecordError(exposure, 2);
  const [unavailable] = await unavailableRuntimes(new Set(jobs.map((j) => j.runtime)));
  if (unavailable !== undefined) {
    const [runtime, reason] = unavailable;
    // The recording is per language: any runtime of the same language that runs here records the same conversation.
    const others = RUNTIME_NAMES.filter((r) => r !== runtime && runtimeLanguage(r) === runtimeLanguage(runtime));
    const down = await unavailableRuntimes(others);
    const instead = others.filter((r) => !down.has(r));
    throw new RecordError(
      `${runtime} cannot run here: ${reason}${instead.length > 0 ? `; record on --runtime ${instead.join(' or ')} instead` : ''}`,
      2,
    );
  }
}

/**
 * Writes every recording once all are made, the model key scrubbed from them (a recording that would still hold it is
 * refused, and nothing is written), each scenario kept to its user turn.
 */
async function writeRecordings(
  recorded: ReadonlyArray<Job & { recording: Recording }>,
  out: (line: string) => void,
  shown: (file: string) => string,
): Promise<void> {
  const texts = recorded.map(({ scenario, language, recording }) => ({
    file: recordingPath(scenario.file, language),
    ...withoutSecrets(scenario, language, recording),
  }));
  const leaking = texts.find((t) => t.left > 0);
  if (leaking) {
    throw new RecordError(
      `${shown(leaking.file)}: the recording would still hold the model key (in a part concord does not rewrite, such as the model name); nothing was written`,
      2,
    );
  }
  for (const scenario of new Set(recorded.map((r) => r.scenario))) {
    if (!isUserTurnOnly(scenario.script)) {
      await keepOnlyUserTurn(scenario.file);
      out(`${shown(scenario.file)}: removed the hand-written steps after the user turn`);
    }
  }
  for (const [i, { scenario, language, recording }] of recorded.entries()) {
    const { file, text, scrubbed } = texts[i]!;
    await writeFileAtomic(file, text);
    out(`wrote ${shown(file)}`);
    if (scrubbed > 0)
      out(
        `note: the model echoed the key ${scrubbed} time(s) in ${shown(file)}; each is written as [redacted] and replayed so`,
      );
    const calls = recording.script.filter((s) => s.kind === 'assistant').length;
    if (scenario.expect.runs && scenario.expect.runs.length !== calls) {
      out(
        `note: expect.runs in ${shown(scenario.file)} lists ${scenario.expect.runs.length} outcome(s), the ${language} recording makes ${calls} call(s): adjust it before gating`,
      );
    }
  }
}

/**
 * The recording's text with the key scrubbed from what the model said (its words, programs and
 * descriptions), how many times it was, and how many forms of it are left elsewhere (the user turn or the
 * model name holding it): such a recording is refused, not written.
 */
function withoutSecrets(
  scenario: Scenario,
  language: Language,
  recording: Recording,
): { text: string; scrubbed: number; left: number } {
  let scrubbed = 0;
  const clean = (text: string) => {
    scrubbed += countSecrets(text);
    return scrubSecrets(text);
  };
  const script = recording.script.map((step): ScriptStep => {
    if (step.kind === 'user') return step;
    if (step.kind !== 'assistant') return { ...step, text: clean(step.text) };
    const programs = Object.fromEntries(
      Object.entries(step.runCode.programs).map(([lang, code]) => [lang, clean(code ?? '')]),
    );
    return { ...step, text: clean(step.text), runCode: { description: clean(step.runCode.description), programs } };
  });
  const text = renderRecording(scenario, language, { ...recording, script });
  return { text, scrubbed, left: countSecrets(text) };
}

function choose(scenarios: readonly Scenario[], names: readonly string[] | undefined): Scenario[] {
  if (!names)
    return scenarios.filter(
      (s) => isUserTurnOnly(s.script) && languagesOf(s).some((l) => !existsSync(recordingPath(s.file, l))),
    );
  const known = new Map(scenarios.map((s) => [s.name, s]));
  return names.map((name) => {
    const scenario = known.get(name);
    if (!scenario)
      throw new RecordError(`--scenario ${name}: no such scenario (known: ${[...known.keys()].sort().join(', ')})`, 2);
    return scenario;
  });
}

function languagesOf(scenario: Scenario): Language[] {
  return [...new Set(scenario.runtimes.map((r) => runtimeLanguage(r)))];
}

/**
 * One runtime per language: the first the scenario declares in the gate's order (worker, process, Pyodide, container).
 */
function jobsOf(scenario: Scenario, only: readonly RuntimeName[] | undefined): Job[] {
  const jobs: Job[] = [];
  for (const runtime of RUNTIME_NAMES) {
    if (!scenario.runtimes.includes(runtime) || (only && !only.includes(runtime))) continue;
    const language = runtimeLanguage(runtime);
    if (!jobs.some((j) => j.language === language)) jobs.push({ scenario, language, runtime });
  }
  return jobs;
}

async function whatWouldBeReplaced(jobs: readonly Job[], shown: (file: string) => string): Promise<string[]> {
  const lines: string[] = [];
  for (const scenario of new Set(jobs.map((j) => j.scenario))) {
    if (!isUserTurnOnly(scenario.script)) {
      const steps = scenario.script.slice(1);
      const calls = steps.filter((s) => s.kind === 'assistant').length;
      lines.push(
        `${shown(scenario.file)}: its hand-written conversation (${calls} run_code step(s) and a final answer, lines ${steps[0]!.line}–${steps.at(-1)!.line}) is removed; the user turn stays`,
      );
    }
  }
  for (const { scenario, language } of jobs) {
    const file = recordingPath(scenario.file, language);
    if (!existsSync(file)) continue;
    lines.push(`${shown(file)}: ${await describeRecording(file, language)}`);
  }
  return lines;
}

async function describeRecording(file: string, language: Language): Promise<string> {
  try {
    const old = parseRecording(file, await readFile(file, 'utf8'), language);
    return `the ${language} recording from ${old.model} (${old.script.filter((s) => s.kind === 'assistant').length} run_code call(s)) is replaced`;
  } catch {
    return `an unreadable ${language} recording is replaced`;
  }
}

async function recordOne(
  { pair: job, scenario, target }: ReadyPair<Job>,
  options: RecordOptions,
  session: Session,
): Promise<Recording> {
  const live = new LiveModel(options.endpoint, job.language);
  const handle = session.registerLiveModel(live);
  const where = `${job.scenario.name} × ${job.runtime}`;
  try {
    const { record: run } = await runOne(scenario, target, { live: handle.token });
    const failure = live.failure ?? run.failure;
    if (failure !== undefined || !live.finished)
      throw new RecordError(
        `${where}: ${firstLine(failure ?? 'the conversation ended without a final answer')}; nothing was written`,
        1,
      );
    return {
      model: options.endpoint.model,
      runtime: job.runtime,
      script: live.steps.map((step, i): ScriptStep => ({ ...step, line: i + 1 })),
    };
  } catch (error) {
    if (error instanceof RecordError) throw error;
    throw new RecordError(`${where}: ${firstLine((error as Error).message)}; nothing was written`, 1);
  } finally {
    handle.release();
  }
}

const firstLine = (text: string) => text.split('\n')[0]!;

/**
 * Removes the steps after the user turn from a scenario file. The text of those steps is cut out, so every
 * other byte (comments, flow style, spacing) stays as it was; should the cut not leave exactly the user
 * turn, the YAML document is edited instead, which keeps comments but may respace some lines.
 */
async function keepOnlyUserTurn(file: string): Promise<void> {
  const source = await readFile(file, 'utf8');
  const doc = parseDocument(source);
  const script = doc.get('script', true) as YAMLSeq;
  const [user, ...rest] = script.items as Node[];
  let start = user!.range![2];
  let end = rest.at(-1)!.range![2];
  if (source[start - 1] !== '\n') start = lineAfter(source, start);
  if (source[end - 1] !== '\n') end = lineAfter(source, end);
  const cut = source.slice(0, start) + source.slice(end);
  const check = parseDocument(cut).toJS() as { script?: unknown };
  const wanted = { ...(doc.toJS() as object), script: [(doc.toJS() as { script: unknown[] }).script[0]] };
  if (JSON.stringify(check) === JSON.stringify(wanted)) return writeFileAtomic(file, cut);
  script.items.splice(1);
  await writeFileAtomic(file, yamlText(doc, { lineWidth: 0 }));
}

function lineAfter(source: string, at: number): number {
  const newline = source.indexOf('\n', at);
  return newline === -1 ? source.length : newline + 1;
}
