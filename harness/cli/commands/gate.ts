import type { Command } from 'commander';

export function registerGate(program: Command): void {
  program
    .command('gate')
    .description('(not built yet)')
    .action(() => {
      console.error('concord gate: not built yet');
      process.exit(1);
    });
}
