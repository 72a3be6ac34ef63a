import { describe, expect, it } from 'vitest';
import { ConcordCommand, HELP_HINT } from './concord-command.js';

/** What a mistyped command line prints, with a program of one command and one option. */
function misuse(...args: string[]): string {
  let said = '';
  const program = new ConcordCommand('concord')
    .showHelpAfterError(HELP_HINT)
    .exitOverride()
    .configureOutput({ writeErr: (text) => void (said += text), writeOut: (text) => void (said += text) });
  program
    .command('gate')
    .option('--update <mode>', 'which snapshots to write')
    .action(() => {});
  try {
    program.parse(args, { from: 'user' });
  } catch {
    // exitOverride throws where commander would exit.
  }
  return said;
}

describe('a mistyped command line', () => {
  it('is one line, the nearest option named even when a value was given with `=`, and a pointer to --help', () => {
    expect(misuse('gate', '--upate=new')).toBe(
      "error: unknown option '--upate'\n(Did you mean --update?)\n(run it with --help for its options)\n",
    );
    expect(misuse('gate', '--upate', 'new')).toContain('(Did you mean --update?)');
    expect(misuse('gaet')).toBe(
      "error: unknown command 'gaet'\n(Did you mean gate?)\n(run it with --help for its options)\n",
    );
  });
});
