import { type Command, Option } from 'commander';
import { DEFAULT_PYTHON_FLOOR, SUPPORTED_PYTHON_VERSIONS } from '../../../codemode/index.js';
import { rootOption } from '../project-option.js';
import type { CheckFlags } from '../run-check.js';

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description(
      "Run concord's checks on what a model is shown, without assembling an app: the SDKs in the request bodies, prompts, tools files and snapshots your own tests keep",
    )
    .option(
      '--request <paths...>',
      'chat request bodies: Chat Completions, Responses, Anthropic Messages, Gemini or Bedrock Converse JSON, or the call options of an AI SDK model, and the vitest or Jest snapshot files (*.snap) that hold them; or folders of any material, read recursively',
    )
    .option(
      '--sdk <paths...>',
      'system prompts and tools:sdk sections (.md, .txt), SDK code (.py, .pyi, .ts), tools files (.json: a list, { tools }, an MCP tools/list result, { initial, changes }) and snapshot files; or folders of any material, read recursively (a prompt and the one tools file beside it are one request)',
    )
    .addOption(
      new Option(
        '--language <language>',
        'the language programs are written in, for SDK files (default: .py/.pyi files are Python, .ts files TypeScript, else the language the SDK block names); it never makes prose into code',
      ).choices(['python', 'typescript']),
    )
    .option(
      '--run-code <file>',
      'with --sdk: the function that runs programs ({ name, description, parameters }) or the tools file it is listed in, beside every SDK',
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
      '--code-tool <names>',
      'the functions that run programs, comma-separated (default: run_code and every function that takes a `code` string)',
    )
    .option(
      '--tools-object <name>',
      'the name your runtime binds the tools under, when programs call `codemode.name(…)` rather than `tools.name(…)` (default: tools)',
    )
    .option(
      '--no-cache',
      'compute every verdict afresh: neither read nor write .concord/cache/ (also CONCORD_NO_CACHE=1)',
    )
    .addOption(rootOption())
    .addHelpText(
      'after',
      '\nChecks: language agreement (the section, its block and the run_code descriptions), the names of the SDK\n' +
        '(collisions, tools no way reaches), Python: the stubs compiled and executed as a module on every interpreter from\n' +
        "the floor up (local, container where provisioned, Pyodide) and the names against the floor's Unicode tables;\n" +
        'TypeScript: the block type-checked by the compiler.\n' +
        'Material that shows no SDK is no Code Mode prompt: counted in one line, and left out.\n' +
        'Exit codes: 0 no finding; 1 findings; 2 bad input (not JSON, two SDK blocks in one prompt), or nothing given shows an SDK.\n' +
        'Examples: concord check --request test/requests/\n' +
        '          concord check --sdk tests/snapshots/\n' +
        '          concord check --request test/__snapshots__/agent.test.ts.snap\n' +
        '          concord check --sdk tools-sdk.py --run-code run_code.json --floor 3.9\n' +
        '          concord check --sdk sdk.d.ts --run-code codemode.json --code-tool codemode --tools-object codemode',
    )
    .action(async (flags: CheckFlags) => {
      const { runCheck } = await import('../run-check.js');
      await runCheck(flags, (line) => console.log(line));
    });
}
