import { basename, dirname } from 'node:path';
import { readInsideRoot } from '../guarded/read-inside.js';
import type { Node, YAMLMap, YAMLSeq } from 'yaml';
import type { Language } from '../../runtimes/seam/types.js';
import { InputError } from './error.js';
import { MAX_INPUT_BYTES, readYamlInput } from './yaml-input.js';
import { type Locator, type Shape } from './shape.js';
import {
  RUNTIME_NAMES,
  type CompositionEntry,
  type Expectations,
  type RunOutcome,
  type RuntimeName,
  type Scenario,
  type ScriptStep,
} from './types.js';

const OUTCOMES = ['ok', 'exception', 'timeout', 'abort', 'worker-exit', 'invalid-output', 'output-limit'] as const;

/** Entry ids the gate fills in itself. */
export const RESERVED_ENTRY_IDS = ['runtime', 'model'] as const;

const text: Shape = { kind: 'string', nonEmpty: true };

/**
 * A script step. A hand-written step gives its program in both languages; a recorded step only in the
 * language it was recorded in.
 */
export function scriptStepShape(languages: readonly Language[]): Shape {
  const hint = languages.length > 1 ? 'give the program in both languages: typescript: | and python: |' : `give the program in ${languages[0]}`;
  const programs = Object.fromEntries(languages.map((language) => [language, { shape: text, required: true, hint }]));
  return {
    kind: 'choice',
    what: '"- user: ...", "- assistant: {run_code: ...}" or "- final: ..."',
    options: {
      user: text,
      final: text,
      assistant: {
        kind: 'map',
        fields: {
          say: { shape: { kind: 'string' } },
          run_code: { shape: { kind: 'map', fields: { description: { shape: text, required: true }, ...programs } }, required: true },
          result_includes: { shape: { kind: 'list', of: text } },
        },
      },
    },
  };
}

const SCENARIO: Shape = {
  kind: 'map',
  fields: {
    name: { shape: { kind: 'string', pattern: /^[a-z0-9][a-z0-9-]*$/, patternHint: 'use lower-case letters, digits and dashes, and name the file <name>.yml' }, required: true },
    description: { shape: text, required: true },
    runtimes: { shape: { kind: 'list', of: { kind: 'enum', values: RUNTIME_NAMES }, min: 1 } },
    runtime: { shape: { kind: 'map', fields: { timeoutMs: { shape: { kind: 'number', min: 1 } } } } },
    composition: {
      shape: {
        kind: 'list',
        min: 1,
        of: {
          kind: 'map',
          fields: {
            id: { shape: { kind: 'string', pattern: /^[A-Za-z][\w-]*$/, patternHint: 'start with a letter; then letters, digits, "_" or "-"' }, required: true },
            plugin: {
              shape: { kind: 'string', nonEmpty: true },
              required: true,
              hint: 'name the plugin: a package (concord/tools, @team/backend/plugin) or a path relative to this file (./plugins/inventory.ts)',
            },
            config: { shape: { kind: 'json' } },
          },
        },
      },
      required: true,
      hint: 'list the cordis entries: the tool registry, fixture tool plugins and the agent',
    },
    script: {
      shape: {
        kind: 'list',
        min: 1,
        of: scriptStepShape(['typescript', 'python']),
      },
      required: true,
      hint: 'script the conversation: a user turn, assistant turns calling run_code, a final answer; or only the user turn, then run concord record',
    },
    expect: {
      shape: {
        kind: 'map',
        fields: {
          runs: { shape: { kind: 'list', of: { kind: 'enum', values: OUTCOMES } } },
          final_includes: { shape: { kind: 'list', of: text } },
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
  const { loc, root, data } = readYamlInput<Record<string, any>>(file, source, SCENARIO, 'scenario', { hint: 'check the indentation and quoting near this position' });
  const map = root as YAMLMap;
  const nodeOf = (key: string) => map.get(key, true) as Node;

  const expectedName = basename(file).replace(/\.ya?ml$/, '');
  if (data.name !== expectedName) {
    throw loc.error(nodeOf('name'), `name ${JSON.stringify(data.name)} differs from the file name ${JSON.stringify(expectedName)}`, `rename the file to ${data.name}.yml or set name: ${expectedName}`);
  }

  const compositionNode = nodeOf('composition') as YAMLSeq;
  const composition: CompositionEntry[] = [];
  const ids = new Set<string>();
  (data.composition as Array<Record<string, unknown>>).forEach((entry, i) => {
    const node = compositionNode.items[i] as YAMLMap;
    const id = entry.id as string;
    if ((RESERVED_ENTRY_IDS as readonly string[]).includes(id)) {
      throw loc.error(node.get('id', true) as Node, `entry id ${JSON.stringify(id)} is reserved`, 'the gate fills in the "runtime" and "model" entries itself; choose another id');
    }
    if (ids.has(id)) throw loc.error(node.get('id', true) as Node, `entry id ${JSON.stringify(id)} is used twice`, 'give every composition entry its own id');
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

  const scriptNode = nodeOf('script') as YAMLSeq;
  const script: ScriptStep[] = (data.script as Array<Record<string, any>>).map((step, i) => toScriptStep(step, loc.line(scriptNode.items[i] as Node)));
  checkScriptOrder(loc, scriptNode, script);

  const expect: Expectations = {};
  if (data.expect?.runs) expect.runs = data.expect.runs as RunOutcome[];
  if (data.expect?.final_includes) expect.finalIncludes = data.expect.final_includes as string[];
  const calls = script.filter((s) => s.kind === 'assistant').length;
  // A recorded conversation is counted against expect.runs when it is replayed, per language.
  if (expect.runs && !isUserTurnOnly(script) && expect.runs.length !== calls) {
    const node = (nodeOf('expect') as YAMLMap).get('runs', true) as Node;
    throw loc.error(node, `expect.runs lists ${expect.runs.length} outcome(s) but the script makes ${calls} run_code call(s)`, 'give one outcome per assistant step, in order');
  }

  return {
    name: data.name as string,
    description: data.description as string,
    file,
    runtimes: (data.runtimes as RuntimeName[] | undefined) ?? [...RUNTIME_NAMES],
    runtimeConfig: (data.runtime as Record<string, unknown> | undefined) ?? {},
    composition,
    script,
    expect,
  };
}

/** One validated script step (a hand-written or a recorded one) as the model replays it. */
export function toScriptStep(step: Record<string, any>, line: number): ScriptStep {
  if ('user' in step) return { kind: 'user', text: step.user as string, line };
  if ('final' in step) return { kind: 'final', text: step.final as string, line };
  const a = step.assistant as Record<string, any>;
  const programs: Partial<Record<Language, string>> = {};
  for (const language of ['typescript', 'python'] as const) if (typeof a.run_code[language] === 'string') programs[language] = a.run_code[language];
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
  if (script[0]?.kind !== 'user') throw loc.error(at(0), 'the script must start with a user turn', 'begin with "- user: <what the user asks>"');
  if (isUserTurnOnly(script)) return;
  const last = script.length - 1;
  if (script[last]?.kind !== 'final') throw loc.error(at(last), 'the script must end with a final answer', 'end with "- final: <the answer>"');
  script.forEach((step, i) => {
    if (i > 0 && step.kind === 'user') throw loc.error(at(i), 'only the first turn may be a user turn', 'merge the user text into the first step');
    if (step.kind === 'final' && i !== last) throw loc.error(at(i), 'a final answer ends the conversation', 'move this step to the end or remove the steps after it');
  });
}

export function isScenarioFile(name: string): boolean {
  return /\.ya?ml$/.test(name) && !name.includes('.recorded.');
}
