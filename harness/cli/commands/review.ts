import type { Command } from 'commander';
import type { Decision } from '../../snapshot/review.js';
import { colorWanted } from '../../text/paint.js';
import { projectOrExit, rootOption } from '../project-option.js';

interface ReviewFlags {
  acceptAll?: boolean;
  rejectAll?: boolean;
  run?: string;
  root?: string;
}

export function registerReview(program: Command): void {
  program
    .command('review')
    .description('Accept or reject the snapshot changes a gate run proposed (.concord/pending/<run-id>/), file by file')
    .option('--accept-all', 'accept every proposed change without asking')
    .option('--reject-all', 'reject every proposed change without asking')
    .option('--run <run-id>', 'review this run instead of the newest')
    .addOption(rootOption())
    .addHelpText('after', '\nOn a terminal each file shows its diff and asks: [a]ccept, [r]eject, [s]kip. Without one, pass --accept-all or --reject-all.')
    .action(async (flags: ReviewFlags) => {
      if (flags.acceptAll && flags.rejectAll) {
        console.error('concord review: choose one of --accept-all and --reject-all');
        process.exit(2);
      }
      const fixed: Decision | undefined = flags.acceptAll ? 'accept' : flags.rejectAll ? 'reject' : undefined;
      if (!fixed && !process.stdin.isTTY) {
        console.error('concord review: no terminal to ask on; pass --accept-all or --reject-all');
        process.exit(2);
      }
      const project = await projectOrExit('review', flags);
      const { reviewPending } = await import('../../snapshot/review.js');
      try {
        const summary = await reviewPending({
          snapshotsDir: project.snapshotsDir,
          pendingRoot: project.pendingRoot,
          ...(flags.run ? { runId: flags.run } : {}),
          decide: fixed ? async () => fixed : undefined,
          color: colorWanted(),
          out: (line) => console.log(line),
        });
        console.log(summary);
      } catch (error) {
        console.error(`concord review: ${(error as Error).message}`);
        process.exit(2);
      }
    });
}
