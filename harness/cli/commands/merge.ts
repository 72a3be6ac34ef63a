import { resolve } from 'node:path';
import type { Command } from 'commander';
import { colorWanted } from '../../text/paint.js';
import { PENDING_ARTIFACT } from '../../snapshot/pending.js';
import { ciIsSet } from '../ci.js';
import { failAndExit } from '../fail.js';
import { projectOrExit, rootOption } from '../project-option.js';
import { writesEverything } from '../../snapshot/decide.js';

interface MergeFlags {
  root?: string;
  junitFile?: string;
}

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description('One verdict from the --results files of a sharded gate: summary, JUnit file, reports and one pending run with every shard\'s proposals')
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
      const [{ mergeResults, readResults }, { gateVerdict, printSummary }, { junitXml }, { junitTarget, writeReport }, { newRunId, writePending }] = await Promise.all([
        import('../../results/merge.js'),
        import('../../gate/summary.js'),
        import('../../gate/report.js'),
        import('../../report/write.js'),
        import('../../snapshot/pending.js'),
      ]);
      try {
        const merged = mergeResults(await Promise.all(files.map(async (file) => ({ file, results: await readResults(resolve(file)) }))));
        // Coverage is judged over every shard's pairs: a tool one shard never called another may have.
        const { toolCoverage } = await import('../../gate/coverage.js');
        const coverage = toolCoverage(merged.pairs, project.config.coverage?.uncalled);
        const color = colorWanted();
        const out = (line: string) => console.log(line);
        const runId = newRunId();
        const pendingDir = merged.proposals.length > 0 ? await writePending(project.pendingRoot, runId, merged.proposals) : undefined;
        const reportFile = await writeReport(project.root, {
          runId,
          floor: merged.configuration.floor,
          pairs: merged.pairs,
          matrix: merged.matrix,
          interpreters: merged.interpreters,
          absent: merged.absent,
          runFindings: merged.runFindings,
          coverage,
        });
        const junit = await junitTarget(project.root, flags.junitFile);
        await junit.write(junitXml(merged.pairs, merged.obsolete));
        const junitFile = junit.path;
        const ok = gateVerdict(merged.pairs, merged.obsolete, merged.configuration, merged.runFindings, coverage);
        out(`merged ${files.length} results file(s): ${merged.pairs.length} run(s) of commit ${merged.commit ?? '(unknown)'}`);
        printSummary({ out, color }, { results: merged.pairs, obsolete: merged.obsolete, inPlace: writesEverything(merged.configuration.update, merged.configuration.ci), pendingDir, ok, runFindings: merged.runFindings, reportFile, ci: ciIsSet(), coverage });
        out(`junit report: ${junitFile}`);
        const { appendStepSummary, stepSummary } = await import('../../report/step-summary.js');
        const summaryFile = await appendStepSummary(
          stepSummary({ runId, floor: merged.configuration.floor, pairs: merged.pairs, matrix: merged.matrix, interpreters: merged.interpreters, absent: merged.absent, runFindings: merged.runFindings, coverage }, { ok, obsolete: merged.obsolete, ...(pendingDir ? { pendingArtifact: PENDING_ARTIFACT } : {}) }),
        );
        if (summaryFile) out(`pull-request summary: appended to ${summaryFile}`);
        process.exit(ok ? 0 : 1);
      } catch (error) {
        failAndExit('merge', error);
      }
    });
}
