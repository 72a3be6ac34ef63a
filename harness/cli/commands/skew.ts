import type { Command } from 'commander';

export function registerSkew(program: Command): void {
  program
    .command('skew')
    .description('(not built yet)')
    .action(() => {
      console.error('concord skew: not built yet');
      process.exit(1);
    });
}
