import type { Command } from 'commander';
import { type EndpointFlags, endpointOptions } from '../../model/endpoint-config.js';
import { parseRuntimes } from '../../pairs/select.js';
import { UserError } from '../../user-error.js';
import { exitWith } from '../exit.js';
import { failAndExit } from '../fail.js';
import { modelOptions } from '../model-options.js';
import { projectOrExit, rootOption } from '../project-option.js';
import { startWatchdog } from '../watchdog.js';

interface RecordFlags extends EndpointFlags {
  scenario?: string[];
  runtime?: string[];
  root?: string;
  force?: boolean;
}

export function registerRecord(program: Command): void {
  const command = program
    .command('record')
    .description(
      'Run scenarios against a live OpenAI-compatible model and store each conversation beside its scenario, for the gate to replay without a key',
    )
    .option(
      '--scenario <name...>',
      'these scenarios (default: every scenario whose script holds only its user turn and is not recorded yet)',
    )
    .option(
      '--runtime <name...>',
      'record on these runtimes only (one per language: typescript, python, pyodide, python-container)',
    )
    .addOption(rootOption())
    .option('--force', 'replace an existing recording or hand-written conversation');
  for (const option of modelOptions()) command.addOption(option);
  command
    .addHelpText(
      'after',
      '\nEach language goes to scenarios/<name>.recorded.<language>.yml. Nothing is written unless every conversation ends in a final answer.\n' +
        'The key (CONCORD_MODEL_API_KEY) is sent as a bearer token and never written or printed.',
    )
    .action(async (flags: RecordFlags) => {
      // Started at once, awaited before any plugin runs: its start overlaps the command's own.
      const watchdog = startWatchdog('record');
      // Bad usage throws a UserError: the command line prints it in one line and exits 2 (cli/fail.ts).
      const endpoint = endpointOptions(flags);
      const runtimes = flags.runtime ? parseRuntimes(flags.runtime) : undefined;
      const project = await projectOrExit('record', flags);
      const { record } = await import('../../record/record.js');
      await watchdog;
      try {
        await record({
          project,
          ...(flags.scenario ? { scenarios: flags.scenario } : {}),
          ...(runtimes ? { runtimes } : {}),
          force: Boolean(flags.force),
          endpoint,
          allowKeyExposure: Boolean(flags.allowKeyExposure),
          out: (line) => console.log(line),
        });
        exitWith(0);
      } catch (error) {
        if (error instanceof UserError) failAndExit('record', error);
        // Anything unforeseen still ends in one line; its text passes through the same redaction as endpoint errors.
        const { redact } = await import('../../model/openai.js');
        failAndExit('record', new Error(redact((error as Error).message ?? String(error), endpoint)));
      }
    });
}
