import { availableParallelism } from 'node:os';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_PYTHON_FLOOR, isPythonVersion, SUPPORTED_PYTHON_VERSIONS } from '../../../codemode/index.js';
import { cacheDisabledByEnvironment, cacheMaxBytes } from '../../cache/verdict-cache.js';
import { type EndpointFlags, endpointOptions } from '../../model/endpoint-config.js';
import type { EndpointOptions } from '../../model/openai.js';
import { parseRuntimes, parseShard, type Selection, shardFromEnvironment } from '../../pairs/select.js';
import type { Project } from '../../project/root.js';
import { liveLine } from '../../report/live-line.js';
import { pairDurations } from '../../results/durations.js';
import { RUNTIME_NAMES } from '../../runtime-names.js';
import type { UpdateMode } from '../../snapshot/decide.js';
import { colorWanted } from '../../text/paint.js';
import { fromProjectRoot } from '../../text/project-paths.js';
import { TEXT_COLUMNS, wrapText } from '../../text/wrap.js';
import { UserError } from '../../user-error.js';
import { ciIsSet } from '../ci.js';
import { exitWith } from '../exit.js';
import { failAndExit } from '../fail.js';
import { modelOptions } from '../model-options.js';
import { projectOrExit, rootOption } from '../project-option.js';
import { startWatchdog } from '../watchdog.js';

interface GateFlags extends EndpointFlags {
  scenario?: string[];
  runtime?: string[];
  skipRuntime?: string[];
  shard?: string;
  floor?: string;
  update?: UpdateMode | true;
  reporter: 'default' | 'junit';
  junitFile?: string;
  root?: string;
  jobs?: number;
  results?: string;
  shardDurations?: string;
  live?: boolean;
  liveFail?: boolean;
  /** false with --no-cache. */
  cache: boolean;
}

/** `--jobs N`: a whole number from 1 to 64. */
function parseJobs(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 64)
    throw new InvalidArgumentError('expected a whole number from 1 to 64, e.g. --jobs 2');
  return value;
}

export function registerGate(program: Command): void {
  gateOptions(program).action(runGateCommand);
}

/** The `gate` command and its options. */
function gateOptions(program: Command): Command {
  const command = program
    .command('gate')
    .description(
      'Run every scenario × runtime, compare the transcripts with snapshots/, run the checks; exit 1 on any mismatch or failure',
    )
    .option('--scenario <name...>', 'only these scenarios (obsolete snapshots are judged within the selection only)')
    .option('--runtime <name...>', `only these runtimes: ${RUNTIME_NAMES.join(', ')}`)
    .option(
      '--skip-runtime <name...>',
      'leave these runtimes out on purpose (the summary says so); without it a runtime with committed snapshots that cannot run here fails the gate in CI',
    )
    .option(
      '--shard <i/n|auto>',
      'run the i-th of n stable slices of the selection; auto: the slice the CI says (GitLab, Buildkite, CircleCI variables, or CONCORD_SHARD_INDEX/CONCORD_SHARD_TOTAL)',
    )
    .option(
      '--shard-durations <results.json>',
      'deal the shards out by the pair times of an earlier --results file instead of by name',
    )
    .option(
      '--results <file>',
      'write the run as JSON for `concord merge` (pairs, times, findings, diffs, interpreters, proposals)',
    )
    .option(
      '--jobs <n>',
      `pairs run at the same time (default: the number of cores, ${availableParallelism()} here); output and snapshots are the same as with --jobs 1`,
      parseJobs,
    )
    .addOption(rootOption())
    .option(
      '--floor <3.X>',
      `oldest CPython the Python SDK must serve (default: floor in concord.config.yml, else ${DEFAULT_PYTHON_FLOOR}; ${SUPPORTED_PYTHON_VERSIONS.join(', ')})`,
    )
    .addOption(
      new Option(
        '-u, --update [which]',
        'write snapshots: "new" (missing files only) or "all" (also changed and obsolete; the default of a bare -u / --update); ignored when CI is set',
      ).choices(['new', 'all']),
    )
    .addOption(
      new Option(
        '--reporter <name>',
        'also write a report for CI (junit: .concord/junit.xml, written whenever CI is set)',
      )
        .choices(['default', 'junit'])
        .default('default'),
    )
    .option('--junit-file <path>', 'where the JUnit report is written (default .concord/junit.xml)')
    .option(
      '--no-cache',
      'compute every verdict afresh: neither read nor write .concord/cache/ (also CONCORD_NO_CACHE=1)',
    )
    .option(
      '--live',
      'drift watch: answer from the live model (CONCORD_MODEL_* or --model-url/--model) and report where each conversation departs from its recording; writes nothing',
    )
    .option('--live-fail', 'with --live: exit 1 when a conversation drifted (default: report only)');
  for (const option of modelOptions()) command.addOption(option);
  return command.addHelpText(
    'after',
    '\nIn CI (CI set) nothing under snapshots/ is written; proposed files go to .concord/pending/<run-id>/ for `concord review`.',
  );
}

/** The pairs `--scenario`, `--runtime`, `--shard` and `--shard-durations` select. */
async function selectionOf(flags: GateFlags): Promise<Selection> {
  if (flags.shardDurations && !flags.shard) throw new UserError('--shard-durations needs --shard i/n or --shard auto');
  return {
    ...(flags.scenario ? { scenarios: flags.scenario } : {}),
    ...(flags.runtime ? { runtimes: parseRuntimes(flags.runtime) } : {}),
    ...(flags.shard
      ? {
          shard: {
            ...(flags.shard === 'auto' ? shardFromEnvironment() : parseShard(flags.shard)),
            ...(flags.shardDurations ? { durations: await pairDurations(flags.shardDurations) } : {}),
          },
        }
      : {}),
  };
}

/** What `concord gate` does once its options are parsed: a gate run (or a drift watch) that ends the process. */
async function runGateCommand(flags: GateFlags): Promise<void> {
  // Started at once, awaited before any plugin runs: its start overlaps the command's own.
  const watchdog = startWatchdog('gate');
  // Bad usage throws a UserError: the command line prints it in one line and exits 2 (cli/fail.ts).
  let endpoint: EndpointOptions | undefined;
  if (flags.live) {
    if (flags.update !== undefined || flags.reporter !== 'default')
      throw new UserError('--live compares with the recordings only; it takes neither --update nor --reporter');
    endpoint = endpointOptions(flags);
  } else if (flags.liveFail) {
    throw new UserError('--live-fail goes with --live');
  }
  const project = await projectOrExit('gate', flags);
  const { floor } = flags;
  if (floor !== undefined && (!isPythonVersion(floor) || !SUPPORTED_PYTHON_VERSIONS.includes(floor))) {
    throw new UserError(
      `--floor ${floor}: unsupported CPython version (supported: ${SUPPORTED_PYTHON_VERSIONS.join(', ')})`,
    );
  }
  const skipRuntimes = parseRuntimes(flags.skipRuntime ?? [], '--skip-runtime');
  const selection = await selectionOf(flags);
  await watchdog;
  if (endpoint)
    return watchDrift(project, selection, endpoint, {
      liveFail: Boolean(flags.liveFail),
      allowKeyExposure: Boolean(flags.allowKeyExposure),
    });
  const update: UpdateMode = flags.update === undefined ? 'none' : flags.update === true ? 'all' : flags.update;
  const ci = ciIsSet();
  const [{ runGate }, { junitTarget }] = await Promise.all([
    import('../../gate/gate.js'),
    import('../../report/write.js'),
  ]);
  // Every finished run ends in process.exit below. Node also exits, with 0, when its event loop empties
  // while the gate awaits a promise nothing can settle any more: such a run must fail, and say so.
  let lastLine = '';
  // On a terminal, a line below the output shows the running pairs (in CI a line rewritten in place only clutters).
  const live = process.stdout.isTTY && !ci ? liveLine(process.stdout, { sharing: [process.stderr] }) : undefined;
  process.once('beforeExit', () => {
    live?.stop();
    console.error(
      `concord gate: the run stopped before its summary: nothing was left to wait on while a step was still pending (last line printed: ${JSON.stringify(lastLine)}). This is a bug in concord or a runtime.`,
    );
    exitWith(1);
  });
  try {
    // Checked before any scenario runs: a bad target would otherwise fail only after the whole run.
    // In CI the JUnit report is written whatever the reporter: a pipeline keeps it as a test report.
    const junit = flags.reporter === 'junit' || ci ? await junitTarget(project.root, flags.junitFile) : undefined;
    const cache = flags.cache && !cacheDisabledByEnvironment();
    if (cache) cacheMaxBytes();
    const result = await runGate({
      project,
      selection,
      skipRuntimes,
      ...(floor !== undefined ? { floor } : {}),
      update,
      jobs: flags.jobs ?? availableParallelism(),
      ci,
      cache,
      ...(flags.results ? { resultsFile: flags.results } : {}),
      ...(junit ? { junit } : {}),
      github: true,
      color: colorWanted(),
      out: (text) => {
        if (text !== '') lastLine = text;
        const line = shownLine(text, project.root);
        live ? live.out(line) : console.log(line);
      },
      ...(live ? { activity: live.activity } : {}),
    });
    live?.stop();
    // The gate owns this process and has disposed every runtime it started: exit now rather than wait
    // on handles a library may keep open (sockets kept alive, timers).
    exitWith(result.ok ? 0 : 1);
  } catch (error) {
    live?.stop();
    failAndExit('gate', error);
  }
}

/**
 * A line of the gate as printed: files of the project named from its root (shorter, and the same on every machine);
 * on a terminal, wrapped to 100 columns or the terminal's fewer; in a log or a pipe each message stays on one line,
 * whole, for a search to find.
 */
function shownLine(text: string, root: string): string {
  const line = fromProjectRoot(text, root);
  return process.stdout.isTTY ? wrapText(line, Math.min(TEXT_COLUMNS, process.stdout.columns || TEXT_COLUMNS)) : line;
}

/** `gate --live`: exit 1 when a pair could not be judged, or drifted under --live-fail; 0 otherwise. */
async function watchDrift(
  project: Project,
  selection: Selection,
  endpoint: EndpointOptions,
  flags: { liveFail: boolean; allowKeyExposure: boolean },
): Promise<never> {
  const { runDrift } = await import('../../gate/drift.js');
  const { liveFail } = flags;
  try {
    const results = await runDrift({
      project,
      selection,
      endpoint,
      allowKeyExposure: flags.allowKeyExposure,
      color: colorWanted(),
      out: (line) => console.log(line),
    });
    const failed = results.some((r) => r.status === 'failed');
    const drifted = results.some((r) => r.status === 'drift');
    console.log(
      failed
        ? 'drift watch: FAILED (a run could not be judged)'
        : drifted
          ? `drift watch: drifted${liveFail ? '' : ' (reported only; --live-fail makes this exit 1)'}`
          : 'drift watch: every conversation is as recorded',
    );
    exitWith(failed || (drifted && liveFail) ? 1 : 0);
  } catch (error) {
    failAndExit('gate', error);
  }
}
