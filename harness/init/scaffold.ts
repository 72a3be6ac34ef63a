import { existsSync } from 'node:fs';
import { appendFile, copyFile, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Document, parse } from 'yaml';
import { DEFAULT_PYTHON_FLOOR } from '../../codemode/index.js';
import { CPYTHON_IMAGES } from '../../runtimes/cpython/images.js';
import { unavailableRuntimes } from '../assembly/runtimes.js';
import { inside } from '../guarded/inside.js';
import { loadProjectConfig } from '../project/config.js';
import { CONFIG_FILE } from '../project/root.js';
import { RUNTIME_NAMES, type RuntimeName } from '../runtime-names.js';
import { isScenarioFile } from '../scenario/load.js';
import { isFile, isFileBelow, resolvesAsPackage } from '../scenario/plugins.js';
import { yamlText } from '../text/yaml-text.js';
import { RootError } from '../user-error.js';
import { githubWorkflow } from './github-workflow.js';
import { checkInitPaths, type InitPath } from './init-paths.js';

/** Where `concord init --ci github` writes the workflow. */
export const GITHUB_WORKFLOW = '.github/workflows/concord.yml';

/** The folder concord writes its own files to (pending proposals, reports); never committed. */
const CONCORD_DIR = '.concord/';

/** What `concord init` did with one file. */
export interface ScaffoldStep {
  /** Path relative to the root, with `/` separators. */
  file: string;
  action: 'wrote' | 'kept' | 'appended' | 'updated';
  /** Why a file was kept, or what was appended. */
  note?: string;
}

export interface ScaffoldResult {
  steps: ScaffoldStep[];
  /** With a plugin: the scenario that gates it (written now, or one that already names it). */
  scenario?: ScaffoldedScenario;
}

export interface ScaffoldedScenario {
  /** The scenario's name (its file is `scenarios/<name>.yml`) and how its composition names the plugin. */
  name: string;
  pluginReference: string;
  /** The plugin's file below the root, for a relative reference; undefined for a package name. */
  pluginFile?: string;
}

/** Where a scenario written by init points editors for the scenario format: the installed package's schema. */
export const SCENARIO_SCHEMA_REFERENCE = '../node_modules/concord/scenario.schema.json';

/** Entry ids the written composition uses itself, or the gate fills in: the plugin's entry takes none of them. */
const TAKEN_ENTRY_IDS = ['tools', 'agent', 'runtime', 'model'];

/**
 * The plugin as the user named it (a package name, or a `./` / `../` path from the root) turned into the
 * reference a scenario in `scenarios/` writes: package names as they are, paths relative to that folder.
 * Throws a RootError for a reference that is neither, or a path leaving the root.
 */
export function scenarioPluginReference(plugin: string, root: string): { reference: string; file?: string } {
  if (plugin.startsWith('./') || plugin.startsWith('../')) {
    const file = resolve(root, plugin);
    if (!inside(file, root))
      throw new RootError(
        `--plugin ${plugin}: ${file} is outside the project root ${root}`,
        'name a file inside the project (a path from the root, e.g. ./src/plugins/inventory.ts) or an installed package',
      );
    const fromScenarios = relative(join(root, 'scenarios'), file).split(sep).join('/');
    return {
      reference: fromScenarios.startsWith('../') ? fromScenarios : `./${fromScenarios}`,
      file: relative(root, file).split(sep).join('/'),
    };
  }
  // `src/plugins/orders.ts` reads as a path to a person and as the package `src` to Node: a file of that name
  // below the root, where no package of the name resolves, is the file the user meant.
  if (
    !isAbsolute(plugin) &&
    !plugin.startsWith('.') &&
    !resolvesAsPackage(plugin, root) &&
    isFileBelow(root, resolve(root, plugin))
  )
    return scenarioPluginReference(`./${plugin}`, root);
  if (
    isAbsolute(plugin) ||
    plugin.startsWith('.') ||
    plugin.includes('\\') ||
    !/^(@[\w.-]+\/)?[\w.-]+(\/[\w.@-]+)*$/.test(plugin)
  ) {
    throw new RootError(
      `--plugin ${plugin}: neither a package name nor a relative path`,
      'write a package name (@team/backend/plugin) or a path from the project root starting with ./ (./src/plugins/inventory.ts)',
    );
  }
  return { reference: plugin };
}

/** A scenario name from the plugin's last path segment: lower-case letters, digits and dashes. */
export function scenarioNameFor(plugin: string): string {
  const last = basename(plugin, extname(plugin));
  const name = (last === 'index' || last === 'plugin' ? basename(dirname(plugin)) : last)
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return /^[a-z0-9]/.test(name) ? name : 'example';
}

/**
 * The config init writes: the runtimes that can run on this machine, so a first gate is plainly green; each that
 * cannot is a comment saying why and how to add it.
 */
function configText(left: ReadonlyMap<RuntimeName, string>): string {
  const runnable = RUNTIME_NAMES.filter((name) => !left.has(name));
  return [
    '# Marks this folder as the root of the concord gate: scenarios/, snapshots/ and .concord/ live here.',
    '',
    '# The oldest CPython the Python SDK must serve (--floor overrides it).',
    `floor: '${DEFAULT_PYTHON_FLOOR}'`,
    '',
    '# The runtimes `concord gate` runs when --runtime is not given: those that run on this machine.',
    `runtimes: [${runnable.join(', ')}]`,
    ...[...left].map(
      ([name, why]) => `# ${name} is left out: ${oneLine(why)}. Add it to runtimes once it can run here.`,
    ),
    '',
    '# The time budget of one program, for scenarios that set none.',
    '# timeoutMs: 30000',
    '',
  ].join('\n');
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').replace(/[.\s]+$/, '');

/** The composition id of the plugin's entry: the scenario's name, unless the composition already uses it. */
export function pluginEntryId(name: string): string {
  return TAKEN_ENTRY_IDS.includes(name) ? `${name}-plugin` : name;
}

function scenarioText(name: string, reference: string): string {
  const scenario = {
    name,
    description: `A first run: the model reads the SDK of the tools ${reference} registers and runs one program.`,
    composition: [
      { id: 'tools', plugin: 'concord/tools', config: { mode: 'code' } },
      { id: pluginEntryId(name), plugin: reference },
      { id: 'agent', plugin: 'concord/agent', config: { persona: 'You are a helpful assistant.' } },
    ],
    script: [
      { user: 'Are you there?' },
      {
        assistant: {
          run_code: {
            description: 'Answer without calling a tool',
            typescript: "return 'here';\n",
            python: "return 'here'\n",
          },
          result_includes: ['here'],
        },
      },
      { final: 'I am here.' },
    ],
    expect: { runs: ['ok'] },
  };
  return [
    `# yaml-language-server: $schema=${SCENARIO_SCHEMA_REFERENCE}`,
    '# Every key is described in node_modules/concord/docs/scenarios.md.',
    '# Replace the script with a conversation that calls your tools: each assistant step gives the program',
    '# in both languages, and the keyless model replays it against the real app.',
    yamlText(new Document(scenario), { lineWidth: 0 }),
  ].join('\n');
}

/** Whether a `.gitignore` already ignores the `.concord/` folder at the root. */
function ignoresConcordDir(gitignore: string): boolean {
  return gitignore
    .split(/\r?\n/)
    .some((line) =>
      ['.concord', '.concord/', '/.concord', '/.concord/', '.concord/*', '/.concord/*'].includes(line.trim()),
    );
}

/** Writes `file` unless it exists; a file that exists is never touched. */
async function writeNew(root: string, file: string, text: string, steps: ScaffoldStep[]): Promise<void> {
  const path = join(root, file);
  if (existsSync(path)) {
    steps.push({ file, action: 'kept', note: 'it exists' });
    return;
  }
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, text, { flag: 'wx' });
    steps.push({ file, action: 'wrote' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    steps.push({ file, action: 'kept', note: 'it exists' });
  }
}

/**
 * The scenario file already gating `reference`: one in `scenarios/` whose composition names it (read
 * as YAML text, so a scenario with a problem of its own still counts). Undefined when there is none.
 */
async function scenarioNaming(root: string, reference: string): Promise<string | undefined> {
  const dir = join(root, 'scenarios');
  let names: string[];
  try {
    names = (await readdir(dir)).filter(isScenarioFile).sort();
  } catch {
    return undefined;
  }
  // Each is read below: none may be a link or a pipe.
  await checkInitPaths(
    root,
    names.map((name) => ({ path: `scenarios/${name}`, kind: 'file' })),
  );
  for (const name of names) {
    let data: unknown;
    try {
      data = parse(await readFile(join(dir, name), 'utf8'));
    } catch {
      continue;
    }
    const composition = (data as { composition?: unknown } | null)?.composition;
    if (
      Array.isArray(composition) &&
      composition.some((entry) => (entry as { plugin?: unknown } | null)?.plugin === reference)
    )
      return name;
  }
  return undefined;
}

/** `base`, or `base-2`, `base-3`, … : the first name no scenario file in `scenarios/` declares yet. */
function freeScenarioName(root: string, base: string): string {
  const taken = (name: string) => ['.yml', '.yaml'].some((ext) => existsSync(join(root, 'scenarios', name + ext)));
  let name = base;
  for (let n = 2; taken(name); n++) name = `${base}-${n}`;
  return name;
}

/**
 * Makes `root` a project the gate can run: `concord.config.yml`, `.concord/` in `.gitignore`, with
 * `plugin` one scenario wired to it, and with `githubShards` a GitHub Actions workflow. Never overwrites a
 * file, never writes a second scenario for a plugin a scenario already names, and never takes a scenario
 * name or entry id that is in use: running it again changes nothing, and the gate runs as before.
 */
export interface ScaffoldOptions {
  /** Write a GitHub Actions workflow with this many shard jobs (1: one job). */
  githubShards?: number;
  /** A concord tarball (`npm pack`) to keep in the repository: copied to `vendor/` and named in package.json. */
  vendor?: string;
}

export async function scaffoldProject(
  root: string,
  plugin: string | undefined,
  options: ScaffoldOptions = {},
): Promise<ScaffoldResult> {
  // Every input is checked before anything is written.
  const tarball = options.vendor === undefined ? undefined : await vendorSource(options.vendor);
  const target = plugin === undefined ? undefined : scenarioPluginReference(plugin, root);
  const paths: InitPath[] = [
    { path: CONFIG_FILE, kind: 'file' },
    { path: '.gitignore', kind: 'file' },
    ...(target !== undefined ? [{ path: 'scenarios', kind: 'folder' } as const] : []),
    ...(tarball !== undefined
      ? [
          { path: `${VENDOR_DIR}/${basename(tarball)}`, kind: 'file' } as const,
          { path: 'package.json', kind: 'file' } as const,
        ]
      : []),
    ...(options.githubShards !== undefined ? [{ path: GITHUB_WORKFLOW, kind: 'file' } as const] : []),
  ];
  await checkInitPaths(root, paths);
  const existing = target === undefined ? undefined : await scenarioNaming(root, target.reference);
  const steps: ScaffoldStep[] = [];
  await writeNew(root, CONFIG_FILE, configText(await unavailableRuntimes(RUNTIME_NAMES)), steps);
  let scenario: ScaffoldedScenario | undefined;
  if (target !== undefined) {
    const name = existing?.replace(/\.ya?ml$/, '') ?? freeScenarioName(root, scenarioNameFor(plugin!));
    if (existing !== undefined) {
      steps.push({ file: `scenarios/${existing}`, action: 'kept', note: `it already gates ${target.reference}` });
    } else {
      await writeNew(root, `scenarios/${name}.yml`, scenarioText(name, target.reference), steps);
    }
    scenario = {
      name,
      pluginReference: target.reference,
      ...(target.file !== undefined ? { pluginFile: target.file } : {}),
    };
  }

  const gitignore = join(root, '.gitignore');
  if (!existsSync(gitignore)) {
    await writeNew(root, '.gitignore', `${CONCORD_DIR}\n`, steps);
  } else {
    const text = await readFile(gitignore, 'utf8');
    if (ignoresConcordDir(text)) {
      steps.push({ file: '.gitignore', action: 'kept', note: `it already ignores ${CONCORD_DIR}` });
    } else {
      await appendFile(gitignore, `${text === '' || text.endsWith('\n') ? '' : '\n'}${CONCORD_DIR}\n`);
      steps.push({ file: '.gitignore', action: 'appended', note: CONCORD_DIR });
    }
  }
  if (tarball !== undefined) await vendorPackage(root, tarball, steps);
  if (options.githubShards !== undefined) {
    const floor = (await loadProjectConfig(join(root, CONFIG_FILE))).floor ?? DEFAULT_PYTHON_FLOOR;
    const newest = CPYTHON_IMAGES.at(-1)!.python;
    await writeNew(
      root,
      GITHUB_WORKFLOW,
      githubWorkflow({ shards: options.githubShards, pythons: [...new Set([floor, newest])] }),
      steps,
    );
  }
  return { steps, ...(scenario !== undefined ? { scenario } : {}) };
}

/** Where `--vendor` keeps the tarball, below the root. */
export const VENDOR_DIR = 'vendor';

/** The tarball `--vendor` names: an existing `.tgz` file. */
async function vendorSource(file: string): Promise<string> {
  const path = resolve(file);
  if (!isFile(path) || !path.endsWith('.tgz'))
    throw new RootError(
      `--vendor ${file}: no such .tgz file`,
      "name the tarball `npm pack` wrote in concord's checkout, e.g. --vendor ../concord/concord-0.1.0.tgz",
    );
  return path;
}

/**
 * Keeps the concord tarball in the repository (`vendor/<name>.tgz`) and points package.json at it
 * (`file:vendor/<name>.tgz`), so `npm ci` installs it on a fresh clone. A tarball already there is kept;
 * package.json is written atomically and only its concord entry changes.
 */
async function vendorPackage(root: string, tarball: string, steps: ScaffoldStep[]): Promise<void> {
  const file = `${VENDOR_DIR}/${basename(tarball)}`;
  const target = join(root, file);
  if (resolve(tarball) === target) steps.push({ file, action: 'kept', note: 'it is the tarball named' });
  else if (existsSync(target)) steps.push({ file, action: 'kept', note: 'it exists' });
  else {
    await mkdir(dirname(target), { recursive: true });
    await copyFile(tarball, target);
    steps.push({ file, action: 'wrote' });
  }
  const spec = `file:${file}`;
  const manifestFile = join(root, 'package.json');
  const exists = existsSync(manifestFile);
  let manifest: Record<string, unknown>;
  try {
    manifest = exists
      ? (JSON.parse(await readFile(manifestFile, 'utf8')) as Record<string, unknown>)
      : {
          name: basename(root)
            .toLowerCase()
            .replace(/[^a-z0-9-]+/g, '-'),
          private: true,
        };
  } catch (error) {
    throw new RootError(
      `package.json: not JSON (${(error as Error).message})`,
      'fix package.json, then run concord init --vendor again',
    );
  }
  const section =
    (['dependencies', 'devDependencies'] as const).find(
      (key) => typeof (manifest[key] as Record<string, unknown> | undefined)?.concord === 'string',
    ) ?? 'devDependencies';
  const deps = { ...((manifest[section] as Record<string, string> | undefined) ?? {}) };
  if (deps.concord === spec) {
    steps.push({ file: 'package.json', action: 'kept', note: `concord is ${spec}` });
    return;
  }
  deps.concord = spec;
  manifest[section] = deps;
  const partial = `${manifestFile}.concord-init`;
  await writeFile(partial, JSON.stringify(manifest, null, 2) + '\n');
  await rename(partial, manifestFile);
  steps.push({
    file: 'package.json',
    action: exists ? 'updated' : 'wrote',
    note: `${section}.concord: ${spec}; run npm install to update the lockfile`,
  });
}
