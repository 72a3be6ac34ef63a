import type { Language, RunErrorKind } from '../../runtimes/seam/types.js';
import type { RuntimeName } from '../runtime-names.js';

export type { RuntimeName };

/** One cordis entry of the composition, as written in the scenario. */
export interface CompositionEntry {
  id: string;
  /**
   * The plugin as written: a package name (`concord/tools`) or a path relative to the scenario file (`./plugins/x.ts`).
   */
  plugin: string;
  config?: unknown;
  /** 1-based line of the entry in the scenario file, for errors raised after loading. */
  line: number;
  /** Where the `plugin:` value and the `config:` value (or the entry, without one) stand. */
  pluginAt?: Position;
  configAt?: Position;
  /** The module the reference resolved to, filled in before anything boots. */
  resolved?: ResolvedPlugin;
}

export interface Position {
  line: number;
  column: number;
}

export interface ResolvedPlugin {
  /** Absolute path of the module the loader imports. */
  file: string;
  /** The public name of a concord plugin (`concord/tools`), else undefined. */
  concord?: string;
}

export interface RunCodeStep {
  description: string;
  /** A hand-written step gives both languages; a recorded one only the language it was recorded in. */
  programs: Readonly<Partial<Record<Language, string>>>;
}

export type ScriptStep =
  | { kind: 'user'; text: string; line: number }
  | {
      kind: 'assistant';
      text: string;
      runCode: RunCodeStep;
      /** Substrings the tool result answering this call must contain; a miss fails the replay. */
      resultIncludes: string[];
      line: number;
    }
  | { kind: 'final'; text: string; line: number };

export type RunOutcome = 'ok' | RunErrorKind;

export interface Expectations {
  /** One outcome per `run_code` call, in order. */
  runs?: RunOutcome[];
  /** Substrings the final answer must contain. */
  finalIncludes?: string[];
}

export interface Scenario {
  name: string;
  description: string;
  /** Absolute path of the scenario file. */
  file: string;
  runtimes: RuntimeName[];
  /** True when the scenario file lists its runtimes; otherwise `runtimes` is every runtime, by default. */
  runtimesListed?: boolean;
  /** Config of the runtime entry, merged over the gate's defaults (e.g. `timeoutMs`). */
  runtimeConfig: Record<string, unknown>;
  composition: CompositionEntry[];
  /** The hand-written conversation, or only its user turn when the conversation is recorded (one file per language). */
  script: ScriptStep[];
  /** Where `script` was read from when that is not `file`: the recording replayed for one language. */
  scriptFile?: string;
  expect: Expectations;
}
