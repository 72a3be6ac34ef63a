import type { Command } from 'commander';

export function registerReview(program: Command): void {
  program
    .command('review')
    .description('(not built yet)')
    .action(() => {
      console.error('concord review: not built yet');
      process.exit(1);
    });
}
