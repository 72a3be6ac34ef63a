import { type Command, InvalidArgumentError } from 'commander';
import { LIMIT_BOUNDS } from '../../../runtimes/seam/options.js';
import { RUNTIMES } from '../../assembly/runtimes.js';
import { RUNTIME_NAMES } from '../../runtime-names.js';
import { projectOrExit, rootOption } from '../project-option.js';
import type { RunOptions } from '../run-program.js';

/**
 * `concord run`: runs one program on one code runtime against fixture tools and prints the RunResult as
 * JSON. The exit code says whether concord could run it (0), not what the program did; 2 is bad usage.
 */

/** The same bounds every runtime applies to its time budget, checked before any runtime starts. */
function parseTimeout(text: string): number {
  const [min, max] = LIMIT_BOUNDS.timeoutMs;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new InvalidArgumentError(
      `expected a whole number of milliseconds from ${min} to ${max}, e.g. --timeout-ms 5000`,
    );
  }
  return value;
}

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('Run one program on a code runtime against fixture tools and print {value, logs, error} as JSON')
    .argument('<PROGRAM_FILE>', 'the program: the body of an async function (top-level await and return work)')
    .requiredOption(
      '--runtime <runtime>',
      `where to run it: ${RUNTIME_NAMES.map((name) => `${name}${RUNTIMES[name].versions ? '[:3.X]' : ''} (${RUNTIMES[name].runsIn})`).join(', ')}`,
    )
    .option(
      '--tools <FILE.json>',
      'tools to bind: a JSON array of {name, ...}; each answers with its arguments, or fails when its name starts with "fail" (default: echo and fail)',
    )
    .option(
      '--scenario <name>',
      "instead of fixture tools: run the program inside this scenario's app (its assembly or host), through its agent, with the app's own tools bound",
    )
    .option(
      '--timeout-ms <N>',
      "time budget of the run in milliseconds (default: timeoutMs of concord.config.yml, else the runtime's)",
      parseTimeout,
    )
    .addOption(rootOption())
    .addHelpText(
      'after',
      '\nExit codes: 0 when the program ran (whatever it did: see "error" in the output), 1 when the runtime could not start, 2 on bad usage.\n',
    )
    .action(async (programFile: string, options: RunOptions) => {
      const project = await projectOrExit('run', options);
      const timeoutMs = options.timeoutMs ?? project.config.timeoutMs;
      const { runProgram } = await import('../run-program.js');
      await runProgram(programFile, { ...options, ...(timeoutMs === undefined ? {} : { timeoutMs }) }, project);
    });
}
