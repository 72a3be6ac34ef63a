import { isDeepStrictEqual } from 'node:util';
import { Document, Scalar, visit } from 'yaml';
import { RUN_CODE_TOOL, TOOLS_SDK_SECTION } from '../../contract/backend.js';
import type {
  ChatMessage,
  ModelRequest,
  ModelResponse,
  SystemSection,
  ToolCall,
  WireTool,
} from '../../contract/model.js';
import { readSdkSection, type SdkBlock } from '../../contract/sdk-section.js';
import { nestsDeeperThan, toJsonText } from '../../runtimes/seam/json.js';
import type { Isolation, JsonValue, Language } from '../../runtimes/seam/types.js';
import { cordisYaml } from '../assembly/cordis-yaml.js';
import type { ObservedCall, ObservedRun } from '../assembly/seam-recorder.js';
import { LANGUAGE_PACKS, LANGUAGES } from '../languages/index.js';
import type { RuntimeName } from '../scenario/types.js';
import { yamlText } from '../text/yaml-text.js';
import { Normalizer } from './normalize.js';
import { type Redaction, valuesAt } from './redactions.js';

/** What one scenario × runtime produced, before normalizing. */
export interface RunRecord {
  scenario: string;
  runtime: RuntimeName;
  language: Language;
  isolation: Isolation | undefined;
  /** The language of the runtime the app mounted as `ctx.codeRuntime`, as it says itself. */
  seamLanguage?: Language;
  /** The entries of the assembled `cordis.yml`. */
  entries: readonly unknown[];
  /** Every request the model received, with its answer. */
  exchanges: ReadonlyArray<{ request: ModelRequest; response?: ModelResponse; error?: string }>;
  /** Every program that crossed the runtime seam, in order. */
  programs: readonly ObservedRun[];
  answer?: string;
  /** Why the run stopped short, when it did. */
  failure?: string;
}

/** The snapshot files of one scenario × runtime: file name → text. */
export type SnapshotFiles = Map<string, string>;

/** The snapshot file holding the SDK block of each language, as its pack names it. */
export const SDK_FILE = Object.fromEntries(
  LANGUAGES.map((language) => [language, LANGUAGE_PACKS[language].sdkFile]),
) as Readonly<Record<Language, string>>;
export const RUN_CODE_FILE = 'run_code.json';
export const TRANSCRIPT_FILE = 'transcript.yaml';
export const CORDIS_FILE = 'cordis.yml';

/**
 * Every file name concord writes in a pair's folder. Anything else there (a `.DS_Store`, a note of the team's) is
 * not a snapshot: it is never compared, never obsolete, and never removed file by file.
 */
export const SNAPSHOT_FILE_NAMES: ReadonlySet<string> = new Set([
  CORDIS_FILE,
  ...Object.values(SDK_FILE),
  RUN_CODE_FILE,
  TRANSCRIPT_FILE,
]);

/** Builds the snapshot files, volatile values (built-in and the project's `redactions`) replaced by numbered tokens. */
export function snapshotFiles(
  record: RunRecord,
  packageRoot: string,
  redactions: readonly Redaction[] = [],
): SnapshotFiles {
  const normalizer = new Normalizer(packageRoot, undefined, redactions);
  for (const r of redactions) {
    if (r.tool === undefined && r.path === undefined) continue;
    for (const call of record.programs.flatMap((p) => p.calls)) {
      if (r.tool !== undefined && call.tool !== r.tool) continue;
      for (const leaf of valuesAt(call.value, r.path ?? []))
        for (const m of leaf.matchAll(r.pattern)) normalizer.volatile(r.placeholder, m[0]);
    }
  }
  const files: SnapshotFiles = new Map();
  // Structured files are normalized value by value before they are written out, so a value's quoting, escaping
  // and line breaks are those of its normalized form, wherever the project lives (a path with ` #` or `: `).
  files.set(
    CORDIS_FILE,
    cordisYaml(record.entries, (doc) => normalizer.strings(doc)),
  );

  const first = record.exchanges[0]?.request;
  const sdkFile = SDK_FILE[record.language];
  const block = sdkBlockOf(first);
  if (block !== undefined) files.set(sdkFile, normalizer.text(block.body));
  const runCode = first?.tools.find((t) => t.name === RUN_CODE_TOOL);
  if (runCode)
    files.set(
      RUN_CODE_FILE,
      JSON.stringify(normalizer.json(JSON.parse(JSON.stringify(runCode)) as JsonValue), null, 2) + '\n',
    );

  files.set(TRANSCRIPT_FILE, toYaml(transcriptData(record, block && { file: sdkFile, block }), normalizer));
  return files;
}

/** The SDK block of a request's `tools:sdk` section, when the section has exactly one. */
export function sdkBlockOf(request: ModelRequest | undefined): SdkBlock | undefined {
  const text = request?.system.find((s) => s.id === TOOLS_SDK_SECTION)?.text;
  return text === undefined ? undefined : readSdkSection(text).block;
}

function transcriptData(record: RunRecord, sdk: SdkFile | undefined): Record<string, unknown> {
  const first = record.exchanges[0]?.request;
  const data: Record<string, unknown> = {
    scenario: record.scenario,
    runtime: record.runtime,
    language: record.language,
    isolation: record.isolation ?? '(no runtime mounted)',
  };
  if (first) {
    data.system = sections(first.system, sdk);
    data.tools = first.tools.map((t) => t.name);
    const native = first.tools.filter((t) => t.name !== RUN_CODE_TOOL);
    if (native.length > 0) data.native_tools = native;
  }
  data.turns = turns(record, sdk);
  if (record.programs.length > 0) {
    // Runs cross the seam in the order the model asked for them: the i-th run answers the i-th run_code call.
    const asked = record.exchanges.flatMap((e) => e.response?.toolCalls ?? []).filter((c) => c.name === RUN_CODE_TOOL);
    data.programs = record.programs.map((run, i) => program(run, asked[i]));
  }
  if (record.answer !== undefined) data.answer = record.answer;
  if (record.failure !== undefined) data.failure = record.failure;
  return data;
}

/** Where the snapshot keeps the SDK block: the file holding its code, and the block with its prose. */
interface SdkFile {
  file: string;
  block: SdkBlock;
}

/**
 * The system sections; the `tools:sdk` section is its fence's info string and the file holding the block,
 * with the prose before and after the block verbatim (only when there is some), and the fence lines when
 * they are not plain ` ``` ` ones: enough to read the whole section as the model did, and to rebuild it.
 */
function sections(system: SystemSection[], sdk: SdkFile | undefined): unknown[] {
  return system.map((s) => {
    if (s.id !== TOOLS_SDK_SECTION || sdk === undefined) return { id: s.id, text: s.text };
    const { block, file } = sdk;
    return {
      id: s.id,
      ...(block.before !== '' ? { before: block.before } : {}),
      fence: block.info,
      ...(block.opening !== '```' + block.info ? { opening: block.opening } : {}),
      file,
      ...(block.closing !== '```' ? { closing: block.closing } : {}),
      ...(block.after !== '' ? { after: block.after } : {}),
    };
  });
}

/** Each request shows only what is new since the previous one; a request that rewrites history shows it all. */
function turns(record: RunRecord, sdk: SdkFile | undefined): unknown[] {
  const first = record.exchanges[0]?.request;
  let previous: ChatMessage[] = [];
  return record.exchanges.map(({ request, response, error }, i) => {
    const turn: Record<string, unknown> = { request: i + 1 };
    if (first && i > 0) {
      if (!isDeepStrictEqual(request.system, first.system)) turn.system = sections(request.system, sdk);
      if (!isDeepStrictEqual(request.tools, first.tools)) turn.tools = request.tools as WireTool[];
    }
    const continues = isDeepStrictEqual(request.messages.slice(0, previous.length), previous);
    let fresh = continues ? request.messages.slice(previous.length) : request.messages;
    if (!continues) turn.history = 'rewritten: every message is shown';
    const answered = i > 0 ? record.exchanges[i - 1]?.response : undefined;
    // The model's own previous answer opens the new messages; it is shown once, as that turn's answer.
    if (
      continues &&
      answered &&
      fresh[0]?.role === 'assistant' &&
      isDeepStrictEqual(fresh[0], { role: 'assistant', ...answered })
    )
      fresh = fresh.slice(1);
    turn.sent = fresh.map(message);
    if (response) turn.answer = answer(response);
    if (error !== undefined) turn.error = error;
    previous = [...request.messages, ...(response ? [{ role: 'assistant' as const, ...response }] : [])];
    return turn;
  });
}

function message(m: ChatMessage): unknown {
  if (m.role === 'user') return { user: m.content };
  if (m.role === 'tool') return { tool: m.toolCallId, content: m.content };
  return { assistant: m.content, tool_calls: m.toolCalls };
}

function answer(response: ModelResponse): unknown {
  if (response.toolCalls.length === 0) return { final: response.content };
  return { ...(response.content ? { say: response.content } : {}), tool_calls: response.toolCalls };
}

/**
 * Values nested deeper than this are written as their JSON text on one line: YAML's writer recurses once per level
 * and would run out of stack on a program's value thousands of levels deep.
 */
const MAX_YAML_DEPTH = 100;

/** `value` as the transcript shows it: itself, or its JSON text when it nests deeper than MAX_YAML_DEPTH. */
function shown(value: JsonValue): unknown {
  return nestsDeeperThan(value, MAX_YAML_DEPTH) ? toJsonText(value) : value;
}

/** A program run; its code and description are shown only where they differ from the call that asked for it. */
function program(run: ObservedRun, asked: ToolCall | undefined): unknown {
  const result: Record<string, unknown> = {};
  if (run.result.value !== undefined) result.value = shown(run.result.value);
  result.logs = run.result.logs;
  if (run.result.error) result.error = run.result.error;
  const args = (asked?.arguments ?? {}) as Record<string, unknown>;
  const callId = asked?.id ?? '(no run_code call asked for this run)';
  return {
    call: callId,
    ...(args.code === run.code ? {} : { code: run.code }),
    calls: run.calls.map((c, n) => call(`${callId}.${n + 1}`, c)),
    result,
  };
}

function call(id: string, c: ObservedCall): unknown {
  return {
    id,
    tool: c.tool,
    args: shown(c.args),
    ...(c.value !== undefined ? { value: shown(c.value) } : {}),
    ...(c.error !== undefined ? { error: c.error } : {}),
  };
}

/**
 * YAML with block scalars for every multi-line string, so a reviewer reads programs and prompts as text; its
 * strings normalized first, so each shows as its normalized form does.
 */
function toYaml(data: unknown, normalizer: Normalizer): string {
  const doc = new Document(data);
  normalizer.strings(doc);
  visit(doc, {
    Scalar(_key, node) {
      // yaml falls back to a quoted scalar by itself where a block cannot hold the text exactly.
      if (typeof node.value === 'string' && node.value.includes('\n')) node.type = Scalar.BLOCK_LITERAL;
    },
  });
  return yamlText(doc, { lineWidth: 0 });
}
