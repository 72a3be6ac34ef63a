import { type Command, Option } from 'commander';
import { DEFAULT_PYTHON_FLOOR, SUPPORTED_PYTHON_VERSIONS } from '../../../codemode/index.js';
import { rootOption } from '../project-option.js';
import type { CheckFlags } from '../run-check.js';

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description(
      "Run concord's checks on what a model is shown, without assembling an app: the SDK of a chat request body your own tests keep, or an SDK file and its run_code function",
    )
    .option(
      '--request <paths...>',
      'chat request bodies: Chat Completions, Responses, Anthropic Messages, Gemini or Bedrock Converse JSON, or the call options of an AI SDK model (files, or folders of *.json files), and the vitest or Jest snapshot files (*.snap) that hold them',
    )
    .option(
      '--sdk <paths...>',
      'tools:sdk sections (prose and one fenced block) or the bare code of SDKs (files, or folders of .md, .txt, .py, .pyi and .ts files), and the snapshot files (*.snap) of the system prompts that hold them',
    )
    .addOption(
      new Option(
        '--language <language>',
        'the language of every --sdk file (default: .py/.pyi files are Python, .ts files TypeScript, else the language the fences name)',
      ).choices(['python', 'typescript']),
    )
    .option(
      '--run-code <file>',
      'with --sdk: the function that runs programs (run_code) as JSON ({ name, description, parameters }), beside every SDK',
    )
    .option(
      '--floor <version>',
      `oldest CPython the Python stubs must compile on (default: floor in concord.config.yml, else ${DEFAULT_PYTHON_FLOOR}; ${SUPPORTED_PYTHON_VERSIONS.join(', ')})`,
    )
    .option(
      '--tools <file>',
      'every tool the backend registers: a JSON list of names or of tool definitions (then each must be reachable)',
    )
    .option(
      '--code-tool <name>',
      'the name of the function that runs programs, in the request bodies and --run-code (default: run_code)',
    )
    .option(
      '--tools-object <name>',
      'the name your runtime binds the tools under, when programs call `codemode.name(…)` rather than `tools.name(…)` (default: tools)',
    )
    .addOption(rootOption())
    .addHelpText(
      'after',
      '\nChecks: language agreement (the section, its block and the run_code descriptions), the names of the SDK\n' +
        '(collisions, tools no way reaches), Python: the stubs compiled and executed as a module on every interpreter from\n' +
        "the floor up (local, container where provisioned, Pyodide) and the names against the floor's Unicode tables;\n" +
        'TypeScript: the block type-checked by the compiler.\n' +
        'Exit codes: 0 no finding; 1 findings; 2 bad input (not JSON, no or two fenced SDK blocks, an unknown language).\n' +
        'Examples: concord check --request test/requests/\n' +
        '          concord check --request test/__snapshots__/agent.test.ts.snap\n' +
        '          concord check --sdk tools-sdk.py --run-code run_code.json --floor 3.9\n' +
        '          concord check --sdk sdk.d.ts --run-code codemode.json --code-tool codemode --tools-object codemode',
    )
    .action(async (flags: CheckFlags) => {
      const { runCheck } = await import('../run-check.js');
      await runCheck(flags, (line) => console.log(line));
    });
}
