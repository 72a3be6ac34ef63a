import { environmentSecrets } from '../guarded/environment-secrets.js';
import { holdSecret, scrubPrintedOutput, takeModelKey } from '../guarded/secret.js';
import { holdWorkflowCommands } from '../report/workflow-commands.js';
import { concordVersion } from '../version.js';
import { COMMANDS } from './commands/all.js';
import { ConcordCommand, HELP_HINT } from './concord-command.js';
import { exitWith, finished, refuseUndecidedExits } from './exit.js';
import { failAndExit } from './fail.js';
import { exitOnSignals } from './signals.js';

// The model key leaves the environment before anything runs, and nothing printed from here on shows it, nor
// any secret the backend's environment holds.
takeModelKey();
for (const { value } of environmentSecrets()) holdSecret(value);
scrubPrintedOutput();
// On GitHub Actions nothing concord prints is read as a workflow command, but its own annotations.
holdWorkflowCommands();
// A reader that has gone (`concord run … | head`) ends what is printed, not the command: it still finishes and
// cleans up after itself.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

const program = new ConcordCommand('concord')
  .description('A snapshot gate for Code Mode agents')
  .version(concordVersion(), '-V, --version', 'print the version of concord')
  .showHelpAfterError(HELP_HINT)
  // Bad usage exits 2, like every other input error of concord.
  .exitOverride((err) => {
    exitWith(err.exitCode === 0 ? 0 : 2);
  });

for (const register of COMMANDS) register(program);

// `--debug` anywhere on the line: failures also print their stack.
const argv = process.argv.filter((arg) => arg !== '--debug');
if (argv.length !== process.argv.length) process.env.CONCORD_DEBUG = '1';
exitOnSignals(() => argv[2] ?? '');
refuseUndecidedExits(() => argv[2] ?? '');

try {
  await program.parseAsync(argv);
  finished();
} catch (error) {
  failAndExit(argv[2] ?? '', error);
}
