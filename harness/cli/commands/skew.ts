import type { Command } from 'commander';
import { DEFAULT_PYTHON_FLOOR, type PythonVersion, SUPPORTED_PYTHON_VERSIONS } from '../../../codemode/index.js';
import { UserError } from '../../user-error.js';
import { projectOrExit, rootOption } from '../project-option.js';
import { startWatchdog } from '../watchdog.js';

interface SkewFlags {
  floor?: string;
  scenario?: string;
  json?: boolean;
  root?: string;
}

export function registerSkew(program: Command): void {
  program
    .command('skew')
    .description(
      "Show the Unicode skew between this Node and the floor CPython, and whether the project's Python SDK renderer is pinned to the floor",
    )
    .option(
      '--floor <version>',
      `oldest CPython the Python stubs must compile on (default: floor in concord.config.yml, else ${DEFAULT_PYTHON_FLOOR}; ${SUPPORTED_PYTHON_VERSIONS.join(', ')})`,
    )
    .option('--scenario <name>', 'whose app renders the fixture (default: the first scenario with a Python runtime)')
    .addOption(rootOption())
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      "\nThe fixture (one tool per Unicode version past the floor's) is registered in the project's own app through ctx.tools.register\n" +
        'and read back from the tools:sdk section the model receives; it is compiled on the floor interpreter and every one above.\n' +
        'The floor interpreter is a local python3.X when present, else the runtime container image, else the nearest Pyodide.\n' +
        'Exit codes: 0 pinned; 1 not pinned (or an interpreter from the floor up rejects the SDK); 2 bad input.\n' +
        'Example: concord skew --floor 3.9 --scenario exotic-names',
    )
    .action(async (flags: SkewFlags) => {
      // Started at once, awaited before any plugin runs: its start overlaps the command's own.
      const watchdog = startWatchdog('skew');
      const project = await projectOrExit('skew', flags);
      const floor = flags.floor ?? project.config.floor ?? DEFAULT_PYTHON_FLOOR;
      if (!(SUPPORTED_PYTHON_VERSIONS as readonly string[]).includes(floor)) {
        throw new UserError(
          `--floor: expected one of ${SUPPORTED_PYTHON_VERSIONS.join(', ')}, got ${JSON.stringify(floor)}`,
        );
      }
      const [{ Session }, { measureSkew }, { formatSkew }, { projectSdkSource }, { loadProjectHost }] =
        await Promise.all([
          import('../../session.js'),
          import('../../skew/measure-skew.js'),
          import('../../skew/format.js'),
          import('../../skew/project-source.js'),
          import('../../assembly/project-host.js'),
        ]);
      const host = await loadProjectHost(project);
      await watchdog;
      // The app that renders the SDK and the interpreters that measure it are the session's, stopped once.
      await using session = new Session({
        ...(project.config.pyodide?.versions ? { pyodides: project.config.pyodide.versions } : {}),
        ...(host === undefined ? {} : { host }),
      });
      const source = await projectSdkSource(session, project, flags.scenario);
      if (typeof source === 'string') throw new UserError(source);
      const report = await measureSkew(floor as PythonVersion, await session.inventory(), source);
      process.stdout.write(flags.json ? JSON.stringify(report, null, 2) + '\n' : formatSkew(report));
      process.exitCode = report.pinned ? 0 : 1;
    });
}
