import type { Command } from 'commander';
import type { Project } from '../../project/root.js';
import { PENDING_ARTIFACT } from '../../snapshot/pending.js';
import type { Decision, PendingEntry } from '../../snapshot/review.js';
import { colorWanted } from '../../text/paint.js';
import { UserError } from '../../user-error.js';
import { ciIsSet } from '../ci.js';
import { exitWith } from '../exit.js';
import { projectOrExit, rootOption } from '../project-option.js';

interface ReviewFlags {
  acceptAll?: boolean;
  rejectAll?: boolean;
  run?: string;
  root?: string;
  list?: boolean;
  json?: boolean;
  from?: string;
}

export function registerReview(program: Command): void {
  program
    .command('review')
    .description(
      'Accept or reject the snapshot changes gate runs proposed (.concord/pending/), one decision per distinct change',
    )
    .option('--accept-all', 'accept every proposed change without asking')
    .option('--reject-all', 'reject every proposed change without asking')
    .option('--run <run-id>', 'only the proposals of this run (default: every pending run)')
    .option(
      '--from <dir|file.tgz>',
      "take the proposals of CI's pending artifact (concord-pending) into .concord/pending/ first, then review them",
    )
    .option('--list', 'list the pending proposals and whether each is stale; writes nothing')
    .option(
      '--json',
      'with --list: print them as a JSON array of {run, path, action, status, stale} (path as --list prints it: snapshots/…)',
    )
    .addOption(rootOption())
    .addHelpText(
      'after',
      '\nOn a terminal each change shows its diff (files with the same change are one group, shown and decided once) and\n' +
        'takes one key, no Enter: a accept, r reject, s skip, A / R / S the same for it and every change after it, d the whole\n' +
        'diff, q quit (the rest stays pending), ? help. Without a terminal, pass --accept-all or --reject-all.\n' +
        'Each decision takes effect at once; undecided proposals stay pending. A proposal made against a snapshot that has\n' +
        'changed since is stale: it is not applied (exit 1) until a new gate run replaces it. With CI set, review writes nothing (exit 2).',
    )
    .action(runReviewCommand);
}

/** What `concord review` does once its options are parsed. */
async function runReviewCommand(flags: ReviewFlags): Promise<void> {
  const project = await projectOrExit('review', flags);
  const { listPending, reviewPending } = await import('../../snapshot/review.js');
  const { failAndExit } = await import('../fail.js');
  try {
    const runId = flags.from === undefined ? flags.run : await takePending(flags.from, flags.run, project);
    const where = {
      snapshotsDir: project.snapshotsDir,
      pendingRoot: project.pendingRoot,
      ...(runId ? { runId } : {}),
    };
    if (flags.list || flags.json) {
      printPending(await listPending(where), Boolean(flags.json));
      exitWith(0);
    }
    if (ciIsSet()) {
      throw new UserError(
        `CI is set, and with CI set nothing under snapshots/ is written; download the ${PENDING_ARTIFACT} artifact to your machine and run \`concord review --from ${PENDING_ARTIFACT}\` there (a folder or .tgz), or list the proposals here with \`concord review --list\``,
      );
    }
    if (flags.acceptAll && flags.rejectAll) {
      throw new UserError('choose one of --accept-all and --reject-all');
    }
    const fixed: Decision | undefined = flags.acceptAll ? 'accept' : flags.rejectAll ? 'reject' : undefined;
    if (!fixed && !process.stdin.isTTY) {
      throw new UserError('no terminal to ask on; pass --accept-all or --reject-all');
    }
    const out = (line: string) => console.log(line);
    const { terminalKeys } = await import('../../snapshot/review-keys.js');
    const keys = fixed ? undefined : terminalKeys({ input: process.stdin, color: colorWanted(), out });
    const summary = await reviewPending({
      ...where,
      decide: keys ? (_change, _diff, group) => keys(group) : async () => fixed!,
      color: colorWanted(),
      out,
    });
    console.log(summary.text);
    exitWith(summary.stale.length > 0 ? 1 : 0);
  } catch (error) {
    failAndExit('review', error);
  }
}

/** `--from`: CI's pending artifact taken into the project's pending folder; the run to review when it held one. */
async function takePending(from: string, run: string | undefined, project: Project): Promise<string | undefined> {
  if (ciIsSet()) {
    throw new UserError(
      `CI is set, and with CI set nothing under snapshots/ is written; download the ${PENDING_ARTIFACT} artifact to your machine and run \`concord review --from ${PENDING_ARTIFACT}\` there`,
    );
  }
  const { importPending } = await import('../../snapshot/import-pending.js');
  const runs = await importPending(from, project.pendingRoot);
  console.log(`took ${runs.length} pending run(s) from ${from}: ${runs.join(', ')}`);
  return run === undefined && runs.length === 1 ? runs[0] : run;
}

/** `--list` and `--json`: each pending proposal, named as the reviewer opens it, from the project root. */
function printPending(entries: readonly PendingEntry[], json: boolean): void {
  if (json)
    console.log(
      JSON.stringify(
        entries.map((e) => ({ ...e, path: `snapshots/${e.path}` })),
        null,
        2,
      ),
    );
  else if (entries.length === 0) console.log('no pending proposals');
  else
    for (const e of entries)
      console.log(
        `${e.run}  ${e.action === 'delete' ? 'delete' : 'write '}  ${e.status.padEnd(8)}  snapshots/${e.path}${e.stale ? '  (stale: the snapshot changed since; run the gate again)' : ''}`,
      );
}
