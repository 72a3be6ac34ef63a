import { type Command, Option } from 'commander';
import { DEFAULT_PYTHON_FLOOR } from '../../../codemode/index.js';
import type { SdkOptions } from '../print-sdk.js';

export function registerSdk(program: Command): void {
  program
    .command('sdk')
    .description('Print the tools:sdk section (the SDK the model reads) for a tool set')
    .addOption(
      new Option('--language <language>', 'language of the SDK')
        .choices(['python', 'typescript'])
        .makeOptionMandatory(),
    )
    .requiredOption('--tools <file>', 'JSON file holding an array of {name, description, parameters, output}')
    .option('--floor <version>', 'oldest CPython the Python stubs must compile on', DEFAULT_PYTHON_FLOOR)
    .option('--strict', 'report every schema part that cannot be typed, with its JSON path and why, and exit 1')
    .option('--no-fence', 'print the bare SDK file instead of the fenced prompt section')
    .option(
      '--stats',
      "print what the SDK costs (o200k tokens and bytes) in all and for each tool, and how much of it is the tools' own descriptions, instead of the SDK",
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 printed; 1 schema parts with no type under --strict; 2 unreadable or malformed input.\n' +
        'Example: concord sdk --language python --tools tools.json --floor 3.9\n' +
        '         concord sdk --language typescript --tools tools.json --stats',
    )
    .action(async (options: SdkOptions) => {
      const { printSdk } = await import('../print-sdk.js');
      await printSdk(options);
    });
}
