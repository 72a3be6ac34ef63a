import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { findProjectRoot } from '../../project/root.js';
import { failAndExit } from '../fail.js';
import { rootOption } from '../project-option.js';

interface InitFlags {
  plugin: string;
  root?: string;
  ci?: 'github';
  shards: number;
}

/** `--shards N`: 1 to 64 CI jobs. */
function parseShards(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 64) throw new InvalidArgumentError('expected a whole number from 1 to 64, e.g. --shards 3');
  return value;
}

const DEFAULT_PLUGIN = './src/plugins/tools.ts';

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('Make this backend repository a project of the gate: concord.config.yml, one scenario wired to your tool plugin, .concord/ in .gitignore')
    .option('--plugin <ref>', 'the plugin that registers your tools: a path from the project root starting with ./ (a .ts file needs no build) or an installed package name', DEFAULT_PLUGIN)
    .addOption(new Option('--ci <provider>', 'also write a CI workflow: github → .github/workflows/concord.yml (shard jobs and a merge job; see docs/ci.md)').choices(['github']))
    .option('--shards <n>', 'shard jobs in the CI workflow', parseShards, 3)
    .addOption(rootOption())
    .addHelpText('after', '\nNo file that exists is ever overwritten: running it again keeps every file and says so.')
    .action(async (flags: InitFlags) => {
      const { scaffoldProject } = await import('../../project/scaffold.js');
      let result;
      try {
        const root = findProjectRoot(flags.root === undefined ? {} : { root: flags.root });
        result = await scaffoldProject(root, flags.plugin, flags.ci === 'github' ? { githubShards: flags.shards } : {});
        console.log(`concord init in ${root}`);
        for (const step of result.steps) console.log(`  ${step.action.padEnd(8)} ${step.file}${step.note ? ` (${step.action === 'appended' ? 'added ' : ''}${step.note})` : ''}`);
        const missing = result.pluginFile !== undefined && !existsSync(join(root, result.pluginFile));
        const steps = [
          ...(missing
            ? [`write ${result.pluginFile}: a cordis plugin with inject: ['tools'] whose apply(ctx) calls ctx.tools.register({ name, description, parameters, output, execute }) for each tool (types: import type { RegisteredTool } from 'concord/contract')`]
            : []),
          `edit scenarios/${result.scenario}.yml: script a conversation whose programs call your tools`,
          'npx concord gate --update=new      # runs every scenario × runtime, writes snapshots/',
          'git add concord.config.yml scenarios snapshots .gitignore',
          'in CI: CI=true npx concord gate      # exit 1 with a diff when anything the model sees or runs changes',
          'after an intended change: npx concord review      # accept or reject the proposed snapshots',
        ];
        console.log('\nNext:');
        steps.forEach((step, i) => console.log(`  ${i + 1}. ${step}`));
      } catch (error) {
        failAndExit('init', error);
      }
    });
}
