import { Option, type Command } from 'commander';
import { DEFAULT_PYTHON_FLOOR, isPythonVersion } from '../../../codemode/tools/config.js';
import { SUPPORTED_PYTHON_VERSIONS } from '../../../codemode/sdk/identifiers/versions.js';
import type { UpdateMode } from '../../gate/gate.js';
import { parseRuntimes, parseShard, type Selection } from '../../gate/select.js';
import { colorWanted } from '../../text/paint.js';
import { ciIsSet } from '../ci.js';
import { failAndExit } from '../fail.js';
import { projectOrExit, rootOption } from '../project-option.js';

interface GateFlags {
  scenario?: string[];
  runtime?: string[];
  shard?: string;
  floor?: string;
  update?: UpdateMode | true;
  reporter: 'default' | 'junit';
  junitFile?: string;
  root?: string;
}

export function registerGate(program: Command): void {
  program
    .command('gate')
    .description('Run every scenario × runtime, compare the transcripts with snapshots/, run the checks; exit 1 on any mismatch or failure')
    .option('--scenario <name...>', 'only these scenarios (obsolete snapshots are judged within the selection only)')
    .option('--runtime <name...>', 'only these runtimes: typescript, python, pyodide, python-container')
    .option('--shard <i/n>', 'run the i-th of n stable slices of the selection')
    .addOption(rootOption())
    .option('--floor <3.X>', `oldest CPython the Python SDK must serve (default: floor in concord.config.yml, else ${DEFAULT_PYTHON_FLOOR}; ${SUPPORTED_PYTHON_VERSIONS.join(', ')})`)
    .addOption(new Option('--update [which]', 'write snapshots: "new" (missing files only) or "all" (also changed and obsolete); ignored when CI is set').choices(['new', 'all']))
    .addOption(new Option('--reporter <name>', 'also write a report for CI').choices(['default', 'junit']).default('default'))
    .option('--junit-file <path>', 'where --reporter junit writes (default .concord/junit.xml)')
    .addHelpText('after', '\nIn CI (CI set) nothing under snapshots/ is written; proposed files go to .concord/pending/<run-id>/ for `concord review`.')
    .action(async (flags: GateFlags) => {
      const project = await projectOrExit('gate', flags);
      const root = project.root;
      const floor = flags.floor ?? project.config.floor ?? DEFAULT_PYTHON_FLOOR;
      if (!isPythonVersion(floor) || !SUPPORTED_PYTHON_VERSIONS.includes(floor)) {
        console.error(`concord gate: --floor ${floor}: unsupported CPython version (supported: ${SUPPORTED_PYTHON_VERSIONS.join(', ')})`);
        process.exit(2);
      }
      let selection: Selection;
      try {
        selection = {
          ...(flags.scenario ? { scenarios: flags.scenario } : {}),
          ...(flags.runtime ? { runtimes: parseRuntimes(flags.runtime) } : project.config.runtimes ? { runtimes: project.config.runtimes, runtimesFrom: `runtimes in ${project.configFile}` } : {}),
          ...(flags.shard ? { shard: parseShard(flags.shard) } : {}),
        };
      } catch (error) {
        console.error(`concord gate: ${(error as Error).message}`);
        process.exit(2);
      }
      const update: UpdateMode = flags.update === undefined ? 'none' : flags.update === true ? 'all' : flags.update;
      const [{ runGate }, { junitXml }, { junitTarget }] = await Promise.all([import('../../gate/gate.js'), import('../../gate/report.js'), import('../../report/write.js')]);
      // Every finished run ends in process.exit below. Node also exits, with 0, when its event loop empties
      // while the gate awaits a promise nothing can settle any more: such a run must fail, and say so.
      let lastLine = '';
      process.once('beforeExit', () => {
        console.error(`concord gate: the run stopped before its summary: nothing was left to wait on while a step was still pending (last line printed: ${JSON.stringify(lastLine)}). This is a bug in concord or a runtime.`);
        process.exit(1);
      });
      try {
        // Checked before any scenario runs: a bad target would otherwise fail only after the whole run.
        const junit = flags.reporter === 'junit' ? await junitTarget(root, flags.junitFile) : undefined;
        const result = await runGate({
          root,
          ...(project.config.timeoutMs !== undefined ? { defaultTimeoutMs: project.config.timeoutMs } : {}),
          selection,
          floor,
          update,
          ci: ciIsSet(),
          color: colorWanted(),
          out: (line) => {
            if (line !== '') lastLine = line;
            console.log(line);
          },
        });
        if (junit) {
          await junit.write(junitXml(result.results, result.obsolete));
          console.log(`junit report: ${junit.path}`);
        }
        // The gate owns this process and has disposed every runtime it started: exit now rather than wait
        // on handles a library may keep open (sockets kept alive, timers).
        process.exit(result.ok ? 0 : 1);
      } catch (error) {
        failAndExit('gate', error);
      }
    });
}
