import { type Command, Option } from 'commander';
import { DEFAULT_PYTHON_FLOOR } from '../../../codemode/index.js';
import { RUNTIME_NAMES } from '../../runtime-names.js';
import { UserError } from '../../user-error.js';
import { failAndExit } from '../fail.js';
import type { SdkOptions } from '../print-sdk.js';
import { projectOrExit, rootOption } from '../project-option.js';

interface SdkFlags extends Partial<SdkOptions> {
  fence: boolean;
  floor: string;
  scenario?: string;
  runtime?: string;
  root?: string;
}

export function registerSdk(program: Command): void {
  program
    .command('sdk')
    .description(
      "Print the tools:sdk section (the SDK the model reads) for a tool set, or the SDK a scenario's app renders",
    )
    .addOption(
      new Option('--language <language>', 'language of the SDK (with --tools)').choices(['python', 'typescript']),
    )
    .option('--tools <file>', 'JSON file holding an array of {name, description, parameters, output}')
    .option(
      '--scenario <name>',
      "instead of --tools: run the scenario as the gate runs it and print the SDK its app showed the model (the project's own tools and renderer)",
    )
    .addOption(
      new Option('--runtime <runtime>', 'with --scenario: the runtime to run it on (default: its first)').choices(
        RUNTIME_NAMES,
      ),
    )
    .option('--floor <version>', 'oldest CPython the Python stubs must compile on', DEFAULT_PYTHON_FLOOR)
    .option('--strict', 'report every schema part that cannot be typed, with its JSON path and why, and exit 1')
    .option('--no-fence', 'print the bare SDK file instead of the fenced prompt section')
    .option(
      '--stats',
      "print what the SDK costs (o200k tokens and bytes) in all and for each tool, and how much of it is the tools' own descriptions, instead of the SDK; with --scenario, in all, counted as the gate counts it",
    )
    .addOption(rootOption())
    .addHelpText(
      'after',
      '\nExit codes: 0 printed; 1 schema parts with no type under --strict, or a scenario whose app showed no SDK; 2 unreadable or malformed input.\n' +
        'Example: concord sdk --language python --tools tools.json --floor 3.9\n' +
        '         concord sdk --language typescript --tools tools.json --stats\n' +
        '         concord sdk --scenario checkout --runtime python --stats',
    )
    .action(async (flags: SdkFlags) => {
      if (flags.scenario !== undefined) {
        if (flags.tools !== undefined || flags.language !== undefined)
          failAndExit(
            'sdk',
            new UserError(
              '--scenario takes the tools and language from the scenario: leave out --tools and --language',
            ),
          );
        const project = await projectOrExit('sdk', flags);
        const { printScenarioSdk } = await import('../print-sdk.js');
        await printScenarioSdk(project, flags.scenario, flags);
        return;
      }
      if (flags.tools === undefined || flags.language === undefined)
        failAndExit(
          'sdk',
          new UserError(
            'name the tools and their language (--tools FILE --language python|typescript), or --scenario NAME',
          ),
        );
      const { printSdk } = await import('../print-sdk.js');
      await printSdk({ ...flags, tools: flags.tools, language: flags.language });
    });
}
