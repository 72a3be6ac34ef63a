import { Command } from 'commander';

/**
 * concord's commands: an unknown option is said in one line with the nearest known one (`--upate=new` → did you
 * mean --update?), its value left out of the comparison, and pointed at `--help` rather than followed by the whole
 * help, which would scroll the error away.
 */
export class ConcordCommand extends Command {
  override createCommand(name?: string): ConcordCommand {
    return new ConcordCommand(name);
  }

  // Commander's own handler, which its typings leave out.
  unknownOption(flag: string): never {
    // The value given with `=` is no part of the option's name: compared with it, nothing is near enough.
    const name = flag.startsWith('--') ? flag.split('=', 1)[0]! : flag;
    return (Command.prototype as unknown as { unknownOption(flag: string): never }).unknownOption.call(this, name);
  }
}

/** What follows a usage error instead of the whole help. */
export const HELP_HINT = '(run it with --help for its options)';
