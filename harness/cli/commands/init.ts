import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { installSpec } from '../../../runtimes/seam/optional-package.js';
import { isTypeScript } from '../../assembly/typescript-plugins.js';
import type { ScaffoldResult } from '../../init/scaffold.js';
import { findProjectRoot } from '../../project/root.js';
import { failAndExit } from '../fail.js';
import { rootOption } from '../project-option.js';

interface InitFlags {
  plugin?: string;
  root?: string;
  ci?: 'github';
  shards: number;
  vendor?: string;
}

/** `--shards N`: 1 to 64 CI jobs. */
function parseShards(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 64)
    throw new InvalidArgumentError('expected a whole number from 1 to 64, e.g. --shards 3');
  return value;
}

export function registerInit(program: Command): void {
  program
    .command('init')
    .description(
      'Make this backend repository a project of the gate: concord.config.yml, .concord/ in .gitignore, and with --plugin one scenario wired to your tool plugin',
    )
    .option(
      '--plugin <ref>',
      'the plugin that registers your tools: a path from the project root starting with ./ (a .ts file needs no build; without ./ when that file exists and no package of its first name is installed) or an installed package name; without it no scenario is written',
    )
    .addOption(
      new Option(
        '--ci <provider>',
        'also write a CI workflow: github → .github/workflows/concord.yml (one job; with --shards N an images job, N shard jobs and a merge job; see docs/ci.md)',
      ).choices(['github']),
    )
    .option('--shards <n>', 'shard jobs in the CI workflow (1: one job)', parseShards, 1)
    .option(
      '--vendor <file.tgz>',
      "keep concord's tarball in the repository: copy it to vendor/ and point package.json at file:vendor/<file> (then run npm install)",
    )
    .addOption(rootOption())
    .addHelpText(
      'after',
      '\nNo file that exists is ever overwritten: running it again keeps every file and says so. A plugin that a scenario\n' +
        'already names gets no second one; a new scenario never takes a name or entry id in use. The scenario format: docs/scenarios.md.',
    )
    .action(async (flags: InitFlags) => {
      const { scaffoldProject } = await import('../../init/scaffold.js');
      let result;
      try {
        const root = findProjectRoot(flags.root === undefined ? {} : { root: flags.root });
        result = await scaffoldProject(root, flags.plugin, {
          ...(flags.ci === 'github' ? { githubShards: flags.shards } : {}),
          ...(flags.vendor !== undefined ? { vendor: flags.vendor } : {}),
        });
        console.log(`concord init in ${root}`);
        for (const step of result.steps)
          console.log(
            `  ${step.action.padEnd(8)} ${step.file}${step.note ? ` (${step.action === 'appended' ? 'added ' : ''}${step.note})` : ''}`,
          );
        const steps = nextSteps(root, result, flags);
        console.log('\nNext:');
        steps.forEach((step, i) => console.log(`  ${i + 1}. ${step}`));
      } catch (error) {
        failAndExit('init', error);
      }
    });
}

/** What to do after `init`, in order: the plugin to write, the scenario to edit, what to install, the first gate. */
function nextSteps(root: string, result: ScaffoldResult, flags: InitFlags): string[] {
  const scenario = result.scenario;
  const missing = scenario?.pluginFile !== undefined && !existsSync(join(root, scenario.pluginFile));
  // A .ts plugin loads with tsx; Python programs are type-checked with pyright; the SDK cost counts tokens.
  const wanted = [
    ...(scenario?.pluginFile !== undefined && isTypeScript(scenario.pluginFile) ? ['tsx'] : []),
    'pyright',
    'js-tiktoken',
  ];
  const peers = wanted.filter((name) => !existsSync(join(root, 'node_modules', name)));
  return [
    ...(missing
      ? [
          `write ${scenario!.pluginFile}: a cordis plugin with inject: ['tools'] whose apply(ctx) calls ctx.tools.register(defineTool({ name, description, parameters, output, execute })) for each tool (import { defineTool } from 'concord/contract')`,
        ]
      : []),
    scenario === undefined
      ? 'add a scenario: npx concord init --plugin ./src/plugins/<your-tools>.ts (a path from the project root, or a package name) writes one wired to your tool plugin; or write scenarios/<name>.yml by hand (node_modules/concord/docs/scenarios.md)'
      : `edit scenarios/${scenario.name}.yml: script a conversation whose programs call your tools (node_modules/concord/docs/scenarios.md)`,
    ...(flags.vendor !== undefined
      ? ['npm install      # installs concord from vendor/ and updates the lockfile, so npm ci works on a fresh clone']
      : []),
    ...(peers.length > 0
      ? [
          `npm install --save-dev ${peers.map(installSpec).join(' ')}      # the optional peers this gate uses (node_modules/concord/docs/getting-started.md)`,
        ]
      : []),
    'npx concord gate --update=new      # runs every scenario × runtime, writes snapshots/',
    `git add concord.config.yml scenarios snapshots .gitignore${flags.vendor !== undefined ? ' vendor package.json package-lock.json' : ''}${flags.ci === 'github' ? ' .github' : ''}`,
    'in CI: CI=true npx concord gate      # exit 1 with a diff when anything the model sees or runs changes',
    'after an intended change: npx concord review      # accept or reject the proposed snapshots (from CI: review --from concord-pending)',
  ];
}
