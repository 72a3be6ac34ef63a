import type { Command } from 'commander';

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('(not built yet)')
    .action(() => {
      console.error('concord run: not built yet');
      process.exit(1);
    });
}
