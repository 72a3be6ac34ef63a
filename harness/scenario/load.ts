import { basename, dirname } from 'node:path';
import type { Node, YAMLMap, YAMLSeq } from 'yaml';
import { type Language, RUN_ERROR_KINDS } from '../../runtimes/seam/types.js';
import { readInsideRoot } from '../guarded/read-inside.js';
import { RUNTIME_NAMES } from '../runtime-names.js';
import { runtimeSettingFields } from './runtime-settings.js';
import type { Locator, Shape } from './shape.js';
import type { CompositionEntry, Expectations, RunOutcome, RuntimeName, Scenario, ScriptStep } from './types.js';
import { MAX_INPUT_BYTES, readYamlInput } from './yaml-input.js';

/** What `expect.runs` may say of one run_code call: `ok`, or the kind of error the runtime reported. */
export const OUTCOMES = ['ok', ...RUN_ERROR_KINDS] as const satisfies readonly RunOutcome[];

/** Entry ids the gate fills in itself. */
export const RESERVED_ENTRY_IDS = ['runtime', 'model'] as const;

const text: Shape = { kind: 'string', nonEmpty: true };

/** Where a program of each language runs, as the scenario schema says it. */
const RUNTIMES_OF: Readonly<Record<Language, string>> = {
  typescript: 'the TypeScript runtime',
  python: 'the Python runtimes',
};

/** The languages a hand-written step gives its program in: every one a runtime speaks. */
const SCRIPT_LANGUAGES = Object.keys(RUNTIMES_OF) as Language[];

/**
 * A script step. A hand-written step gives its program in both languages; a recorded step only in the
 * language it was recorded in.
 */
export function scriptStepShape(languages: readonly Language[]): Shape {
  const hint =
    languages.length > 1
      ? 'give the program in both languages: typescript: | and python: |'
      : `give the program in ${languages[0]}`;
  const programs = Object.fromEntries(
    languages.map((language) => [
      language,
      {
        shape: {
          ...text,
          description: `The program run on ${RUNTIMES_OF[language]}: the body of an async function (top-level await and return work).`,
        },
        required: true,
        hint,
      },
    ]),
  );
  return {
    kind: 'choice',
    what: '"- user: ...", "- assistant: {run_code: ...}" or "- final: ..."',
    description: 'One turn of the conversation: exactly one of user, assistant or final.',
    options: {
      user: { ...text, description: 'What the user asks; the first step, and the only user turn.' },
      final: { ...text, description: "The model's final answer; the last step." },
      assistant: {
        kind: 'map',
        description: 'A model turn that calls run_code once.',
        fields: {
          say: { shape: { kind: 'string', description: 'Text the model says beside the call (optional).' } },
          run_code: {
            shape: {
              kind: 'map',
              description: 'The run_code call: what it is for and the program in each language.',
              fields: {
                description: {
                  shape: { ...text, description: 'The description argument of run_code: what the program does.' },
                  required: true,
                },
                ...programs,
              },
            },
            required: true,
          },
          result_includes: {
            shape: {
              kind: 'list',
              of: text,
              description: 'Substrings the tool result answering this call must contain; a miss fails the replay.',
            },
          },
        },
      },
    },
  };
}

/** The scenario file, key by key: the loader checks it, and scenario.schema.json is written from it. */
export const SCENARIO_SHAPE: Shape = {
  kind: 'map',
  description:
    'A concord scenario: the app to assemble, the runtimes to run it on, a scripted conversation and what must come out of it.',
  fields: {
    name: {
      shape: {
        kind: 'string',
        pattern: /^[a-z0-9][a-z0-9-]*$/,
        patternHint: 'use lower-case letters, digits and dashes, and name the file <name>.yml',
        description: 'The scenario name: the file name without .yml, and the folder of its snapshots.',
      },
      required: true,
    },
    description: {
      shape: { ...text, description: 'What the scenario shows, in a sentence; reports print it.' },
      required: true,
    },
    runtimes: {
      shape: {
        kind: 'list',
        of: { kind: 'enum', values: RUNTIME_NAMES },
        min: 1,
        description: 'The runtimes the scenario runs on (default: every one).',
      },
    },
    runtime: {
      shape: {
        kind: 'map',
        description: 'Settings of the code runtime for this scenario.',
        fields: runtimeSettingFields(),
      },
    },
    composition: {
      shape: {
        kind: 'list',
        min: 1,
        description:
          'The cordis entries of the app, in order; the gate adds the runtime and model entries. Required unless concord.config.yml names a host, which boots the app its own way.',
        of: {
          kind: 'map',
          fields: {
            id: {
              shape: {
                kind: 'string',
                pattern: /^[A-Za-z][\w-]*$/,
                patternHint: 'start with a letter; then letters, digits, "_" or "-"',
                description: 'The entry id, unique in the composition; runtime and model are reserved.',
              },
              required: true,
            },
            plugin: {
              shape: {
                kind: 'string',
                nonEmpty: true,
                description:
                  'A package name (concord/tools, @team/backend/plugin) or a ./ or ../ path from this file (a .ts file needs no build).',
              },
              required: true,
              hint: 'name the plugin: a package (concord/tools, @team/backend/plugin) or a path relative to this file (./plugins/inventory.ts)',
            },
            config: { shape: { kind: 'json', description: "The plugin's config, as the plugin reads it." } },
          },
        },
      },
      hint: 'list the cordis entries: the tool registry, fixture tool plugins and the agent',
    },
    script: {
      shape: {
        kind: 'list',
        min: 1,
        description:
          'The conversation the keyless model replays: a user turn, assistant turns calling run_code, a final answer. Only the user turn: the rest is recorded by concord record.',
        of: scriptStepShape(SCRIPT_LANGUAGES),
      },
      required: true,
      hint: 'script the conversation: a user turn, assistant turns calling run_code, a final answer; or only the user turn, then run concord record',
    },
    expect: {
      shape: {
        kind: 'map',
        description: 'What the expectations check judges.',
        fields: {
          runs: {
            shape: {
              kind: 'list',
              of: { kind: 'enum', values: OUTCOMES },
              description: 'The outcome of each run_code call, in order: ok or the kind of error the runtime reported.',
            },
          },
          final_includes: {
            shape: { kind: 'list', of: text, description: 'Substrings the final answer must contain.' },
          },
        },
      },
    },
  },
};

/**
 * Reads and validates one scenario file; every problem is an InputError with file:line:column and a hint.
 * The file must really lie inside `root` (default: the folder above `scenarios/`).
 */
export async function loadScenario(file: string, root = dirname(dirname(file))): Promise<Scenario> {
  return parseScenario(file, await readInsideRoot(root, file, MAX_INPUT_BYTES));
}

export function parseScenario(file: string, source: string): Scenario {
  const { loc, root, data } = readYamlInput<Record<string, any>>(file, source, SCENARIO_SHAPE, 'scenario', {
    hint: 'check the indentation and quoting near this position',
    jsExpressionsAt: {
      allowed: (keys) => keys[0] === 'composition' && typeof keys[1] === 'number' && keys[2] === 'config',
      where: "a composition entry's config",
    },
  });
  const map = root as YAMLMap;
  const nodeOf = (key: string) => map.get(key, true) as Node;

  const expectedName = basename(file).replace(/\.ya?ml$/, '');
  if (data.name !== expectedName) {
    throw loc.error(
      nodeOf('name'),
      `name ${JSON.stringify(data.name)} differs from the file name ${JSON.stringify(expectedName)}`,
      `rename the file to ${data.name}.yml or set name: ${expectedName}`,
    );
  }

  const composition =
    data.composition === undefined ? [] : compositionOf(loc, nodeOf('composition') as YAMLSeq, data.composition);

  const scriptNode = nodeOf('script') as YAMLSeq;
  const script: ScriptStep[] = (data.script as Array<Record<string, any>>).map((step, i) =>
    toScriptStep(step, loc.line(scriptNode.items[i] as Node)),
  );
  checkScriptOrder(loc, scriptNode, script);

  const expect: Expectations = {};
  if (data.expect?.runs) expect.runs = data.expect.runs as RunOutcome[];
  if (data.expect?.final_includes) expect.finalIncludes = data.expect.final_includes as string[];
  const calls = script.filter((s) => s.kind === 'assistant').length;
  // A recorded conversation is counted against expect.runs when it is replayed, per language.
  if (expect.runs && !isUserTurnOnly(script) && expect.runs.length !== calls) {
    const node = (nodeOf('expect') as YAMLMap).get('runs', true) as Node;
    throw loc.error(
      node,
      `expect.runs lists ${expect.runs.length} outcome(s) but the script makes ${calls} run_code call(s)`,
      'give one outcome per assistant step, in order',
    );
  }

  return {
    name: data.name as string,
    description: data.description as string,
    file,
    runtimes: (data.runtimes as RuntimeName[] | undefined) ?? [...RUNTIME_NAMES],
    runtimesListed: data.runtimes !== undefined,
    runtimeConfig: (data.runtime as Record<string, unknown> | undefined) ?? {},
    composition,
    script,
    expect,
  };
}

/** The composition entries, each with its place; an id the gate reserves, or one used twice, is refused. */
function compositionOf(
  loc: Locator,
  compositionNode: YAMLSeq,
  entries: Array<Record<string, unknown>>,
): CompositionEntry[] {
  const composition: CompositionEntry[] = [];
  const ids = new Set<string>();
  entries.forEach((entry, i) => {
    const node = compositionNode.items[i] as YAMLMap;
    const id = entry.id as string;
    if ((RESERVED_ENTRY_IDS as readonly string[]).includes(id)) {
      throw loc.error(
        node.get('id', true) as Node,
        `entry id ${JSON.stringify(id)} is reserved`,
        'the gate fills in the "runtime" and "model" entries itself; choose another id',
      );
    }
    if (ids.has(id))
      throw loc.error(
        node.get('id', true) as Node,
        `entry id ${JSON.stringify(id)} is used twice`,
        'give every composition entry its own id',
      );
    ids.add(id);
    composition.push({
      id,
      plugin: entry.plugin as string,
      ...('config' in entry ? { config: entry.config } : {}),
      line: loc.line(node),
      pluginAt: loc.position(node.get('plugin', true) as Node),
      configAt: loc.position((node.get('config', true) as Node | undefined) ?? node),
    });
  });
  return composition;
}

/** One validated script step (a hand-written or a recorded one) as the model replays it. */
export function toScriptStep(step: Record<string, any>, line: number): ScriptStep {
  if ('user' in step) return { kind: 'user', text: step.user as string, line };
  if ('final' in step) return { kind: 'final', text: step.final as string, line };
  const a = step.assistant as Record<string, any>;
  const programs: Partial<Record<Language, string>> = {};
  for (const language of SCRIPT_LANGUAGES)
    if (typeof a.run_code[language] === 'string') programs[language] = a.run_code[language];
  return {
    kind: 'assistant',
    text: (a.say as string | undefined) ?? '',
    runCode: { description: a.run_code.description, programs },
    resultIncludes: (a.result_includes as string[] | undefined) ?? [],
    line,
  };
}

/** A script holding only its user turn: the rest of the conversation is recorded from a live model. */
export function isUserTurnOnly(script: readonly ScriptStep[]): boolean {
  return script.length === 1 && script[0]!.kind === 'user';
}

/** A conversation opens with the user and closes with a final answer; assistant turns sit between. */
export function checkScriptOrder(loc: Locator, node: YAMLSeq, script: ScriptStep[]): void {
  const at = (i: number) => node.items[i] as Node;
  if (script[0]?.kind !== 'user')
    throw loc.error(at(0), 'the script must start with a user turn', 'begin with "- user: <what the user asks>"');
  if (isUserTurnOnly(script)) return;
  const last = script.length - 1;
  if (script[last]?.kind !== 'final')
    throw loc.error(at(last), 'the script must end with a final answer', 'end with "- final: <the answer>"');
  script.forEach((step, i) => {
    if (i > 0 && step.kind === 'user')
      throw loc.error(at(i), 'only the first turn may be a user turn', 'merge the user text into the first step');
    if (step.kind === 'final' && i !== last)
      throw loc.error(
        at(i),
        'a final answer ends the conversation',
        'move this step to the end or remove the steps after it',
      );
  });
}

export function isScenarioFile(name: string): boolean {
  return /\.ya?ml$/.test(name) && !name.includes('.recorded.');
}
