import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Document, type Node, type YAMLMap, type YAMLSeq } from 'yaml';
import type { Language } from '../../runtimes/seam/types.js';
import { readRegularFileSync } from '../guarded/read-regular.js';
import { RUNTIME_NAMES, type RuntimeName } from '../runtime-names.js';
import { yamlText } from '../text/yaml-text.js';
import { UserError } from '../user-error.js';
import { InputError } from './error.js';
import { checkScriptOrder, isUserTurnOnly, scriptStepShape, toScriptStep } from './load.js';
import type { Shape } from './shape.js';
import type { Scenario, ScriptStep } from './types.js';
import { MAX_INPUT_BYTES, readYamlInput } from './yaml-input.js';

/**
 * A recorded conversation lives beside its scenario, one file per language: a model shown a Python SDK
 * writes other programs, other descriptions and sometimes another number of steps than one shown a
 * TypeScript SDK, so the two recordings cannot share the scenario's two-language steps.
 */
export function recordingPath(scenarioFile: string, language: Language): string {
  return join(dirname(scenarioFile), basename(scenarioFile).replace(/\.ya?ml$/, '') + `.recorded.${language}.yml`);
}

/** What `concord record` stores: the model's side of one conversation, in one language. */
export interface Recording {
  /** The model that answered, as named to the endpoint. */
  model: string;
  /** The runtime the programs ran on while recording. */
  runtime: RuntimeName;
  script: ScriptStep[];
}

/** A scenario whose conversation is to be recorded but has not been, for this language. */
export class NotRecordedError extends UserError {
  constructor(scenario: Scenario, language: Language) {
    super(
      `not recorded yet for ${language} (the script holds only its user turn) — run concord record --scenario ${scenario.name}`,
      { place: { file: scenario.file } },
    );
  }
}

/** The text of a recording file: the steps in the scenario's own script format, so they read (and paste) the same. */
export function renderRecording(scenario: Scenario, language: Language, recording: Recording): string {
  const steps = recording.script.map((step) => stepData(step, language));
  const header = [
    `# The conversation of scenario ${scenario.name} in ${language}, recorded from a live model by \`concord record\`.`,
    `# \`concord gate\` replays it on the scenario's ${language} runtimes. Re-record: concord record --scenario ${scenario.name} --force`,
  ];
  return (
    header.join('\n') +
    '\n' +
    yamlText(new Document({ model: recording.model, runtime: recording.runtime, script: steps }), {
      lineWidth: 0,
      blockQuote: 'literal',
    })
  );
}

/** One step as it is written in a script. */
export function stepData(step: ScriptStep, language: Language): Record<string, unknown> {
  if (step.kind !== 'assistant') return { [step.kind]: step.text };
  const runCode = { description: step.runCode.description, [language]: step.runCode.programs[language] ?? '' };
  return {
    assistant: {
      ...(step.text ? { say: step.text } : {}),
      run_code: runCode,
      ...(step.resultIncludes.length > 0 ? { result_includes: step.resultIncludes } : {}),
    },
  };
}

const text: Shape = { kind: 'string', nonEmpty: true };

function recordingShape(language: Language): Shape {
  return {
    kind: 'map',
    fields: {
      model: { shape: text, required: true },
      runtime: { shape: { kind: 'enum', values: RUNTIME_NAMES }, required: true },
      script: {
        shape: { kind: 'list', min: 2, of: scriptStepShape([language]) },
        required: true,
        hint: 'record it again with concord record --force',
      },
    },
  };
}

/** Reads and validates a recording file; a bad one is an InputError with its place. */
export function parseRecording(file: string, source: string, language: Language): Recording {
  const { loc, root, data } = readYamlInput<{
    model: string;
    runtime: RuntimeName;
    script: Array<Record<string, unknown>>;
  }>(file, source, recordingShape(language), 'recording', {
    hint: 'record it again with concord record --force',
  });
  const scriptNode = (root as YAMLMap).get('script', true) as unknown as YAMLSeq;
  const script = data.script.map((step, i) => toScriptStep(step, loc.line(scriptNode.items[i] as Node)));
  checkScriptOrder(loc, scriptNode, script);
  if (isUserTurnOnly(script))
    throw loc.error(
      scriptNode,
      'a recording must end with a final answer',
      'record it again with concord record --force',
    );
  return { model: data.model, runtime: data.runtime, script };
}

/**
 * The scenario as one language replays it: a hand-written script as it is, or for a user-turn-only script
 * the recording of that language (its user turn must still be the scenario's; a link to one outside the
 * project `root` is refused).
 */
export function scenarioForLanguage(scenario: Scenario, language: Language, root: string): Scenario {
  if (!isUserTurnOnly(scenario.script)) return scenario;
  const file = recordingPath(scenario.file, language);
  if (!existsSync(file)) throw new NotRecordedError(scenario, language);
  const text = readRegularFileSync(file, 'a recording', MAX_INPUT_BYTES, {
    followLinks: true,
    root,
    hint: 'record it again with concord record --force',
  });
  const recording = parseRecording(file, text.toString('utf8'), language);
  const user = scenario.script[0]!.text;
  if (recording.script[0]!.text !== user) {
    throw new InputError(
      file,
      recording.script[0]!.line,
      1,
      `the recorded user turn differs from the one in ${basename(scenario.file)}`,
      `the question changed since it was recorded: run concord record --scenario ${scenario.name} --force`,
    );
  }
  const calls = recording.script.filter((s) => s.kind === 'assistant').length;
  if (scenario.expect.runs && scenario.expect.runs.length !== calls) {
    throw new InputError(
      file,
      1,
      1,
      `expect.runs in ${basename(scenario.file)} lists ${scenario.expect.runs.length} outcome(s) but this recording makes ${calls} run_code call(s)`,
      'adjust expect.runs to what the model did, or record again',
    );
  }
  return { ...scenario, script: recording.script, scriptFile: file };
}
