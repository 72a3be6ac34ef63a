import { resolve } from 'node:path';
import type { Command } from 'commander';
import { colorWanted } from '../../text/paint.js';
import { ciIsSet } from '../ci.js';
import { exitWith } from '../exit.js';
import { failAndExit } from '../fail.js';
import { projectOrExit, rootOption } from '../project-option.js';

interface MergeFlags {
  root?: string;
  junitFile?: string;
}

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description(
      "One verdict from the --results files of a sharded gate: summary, JUnit file, reports and one pending run with every shard's proposals",
    )
    .argument('<results...>', 'the files written by `concord gate --shard i/n --results FILE`, one per shard')
    .addOption(rootOption())
    .option('--junit-file <path>', 'where the JUnit file goes (default .concord/junit.xml)')
    .addHelpText(
      'after',
      '\nExit codes: 0 when the whole run agrees (exactly as an unsharded gate would say), 1 when it does not, 2 when the files cannot be merged\n' +
        '(different commits or options, overlapping or missing shards, unreadable files).\n' +
        'Example: concord merge results-1.json results-2.json results-3.json',
    )
    .action(async (files: string[], flags: MergeFlags) => {
      const project = await projectOrExit('merge', flags);
      const [
        { mergeResults, readResults },
        { finishRun },
        { junitTarget },
        { newRunId, writePending },
        { toolCoverage },
      ] = await Promise.all([
        import('../../results/merge.js'),
        import('../../gate/finish.js'),
        import('../../report/write.js'),
        import('../../snapshot/pending.js'),
        import('../../checks/tool-coverage.js'),
      ]);
      try {
        const merged = mergeResults(
          await Promise.all(files.map(async (file) => ({ file, results: await readResults(resolve(file)) }))),
        );
        const junit = await junitTarget(project.root, flags.junitFile);
        const runId = newRunId();
        const pendingDir =
          merged.proposals.length > 0 ? await writePending(project.pendingRoot, runId, merged.proposals) : undefined;
        const { configuration, pairs, matrix, interpreters, absent, runFindings, obsolete, proposals } = merged;
        console.log(
          `merged ${files.length} results file(s): ${pairs.length} run(s) of commit ${merged.commit ?? '(unknown)'}`,
        );
        const { ok } = await finishRun(
          // Coverage is judged over every shard's pairs: a tool one shard never called another may have.
          {
            runId,
            floor: configuration.floor,
            pairs,
            matrix,
            interpreters,
            absent,
            runFindings,
            coverage: toolCoverage(pairs, project.config.coverage?.uncalled),
            obsolete,
            update: configuration.update,
            ci: configuration.ci,
            proposals,
            ...(pendingDir ? { pendingDir } : {}),
          },
          {
            reportRoot: project.root,
            ci: ciIsSet(),
            color: colorWanted(),
            out: (line) => console.log(line),
            github: {},
            junit,
          },
        );
        exitWith(ok ? 0 : 1);
      } catch (error) {
        failAndExit('merge', error);
      }
    });
}
