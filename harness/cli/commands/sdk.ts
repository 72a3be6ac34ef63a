import type { Command } from 'commander';

export function registerSdk(program: Command): void {
  program
    .command('sdk')
    .description('(not built yet)')
    .action(() => {
      console.error('concord sdk: not built yet');
      process.exit(1);
    });
}
