import { RUN_CODE_TOOL } from '../../contract/backend.js';
import { recordedResult } from '../../runtimes/seam/calls.js';
import type {
  BindingFunction,
  BindingNamespace,
  CodeRuntime,
  JsonValue,
  Language,
  RunResult,
} from '../../runtimes/seam/types.js';

/** The arguments of a `run_code` call, checked. */
export interface RunCodeArgs {
  code: string;
  description: string;
}

/** One tool call and its outcome. */
export interface ToolCallRecord {
  /** A deterministic id; a program's calls are `<program call id>.<n>`, n counting from 1 in the order they started. */
  id: string;
  tool: string;
  args: JsonValue;
  /** Present when the tool returned. */
  value?: JsonValue;
  /** Present when the tool failed: the message the program's `ToolCallError` carries. */
  error?: string;
}

/** One execution of `run_code`: the program, what the runtime reported, and every tool call it made. */
export interface ProgramRun {
  callId: string;
  language: Language;
  description: string;
  code: string;
  result: RunResult;
  calls: ToolCallRecord[];
}

/** Calls a tool by name on behalf of a program. */
export type ToolExecutor = (name: string, args: JsonValue) => Promise<JsonValue>;

/** Reads `run_code` arguments; anything but two strings is refused with the reason. */
export function parseRunCodeArgs(args: JsonValue): RunCodeArgs {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new Error(
      `${RUN_CODE_TOOL}: arguments must be an object with "code" and "description", got ${JSON.stringify(args)}`,
    );
  }
  const problems: string[] = [];
  for (const key of ['code', 'description']) {
    if (typeof args[key] !== 'string') problems.push(`"${key}" must be a string`);
  }
  for (const key of Object.keys(args)) {
    if (key !== 'code' && key !== 'description') problems.push(`unknown argument "${key}"`);
  }
  if (problems.length > 0) throw new Error(`${RUN_CODE_TOOL}: ${problems.join('; ')}`);
  return { code: args['code'] as string, description: args['description'] as string };
}

/**
 * Runs one program on `runtime` with a `tools` namespace holding `toolNames`, logging each call the
 * program makes under `callId`.
 */
export async function runProgram(
  runtime: CodeRuntime,
  toolNames: readonly string[],
  execute: ToolExecutor,
  args: RunCodeArgs,
  callId: string,
  signal?: AbortSignal,
): Promise<ProgramRun> {
  const calls: ToolCallRecord[] = [];
  const functions = new Map<string, BindingFunction>();
  for (const name of toolNames) {
    functions.set(name, async (callArgs) => {
      const call: ToolCallRecord = { id: `${callId}.${calls.length + 1}`, tool: name, args: structuredClone(callArgs) };
      calls.push(call);
      let value: JsonValue;
      try {
        value = await execute(name, callArgs);
      } catch (error) {
        call.error = error instanceof Error ? error.message : String(error);
        throw error;
      }
      Object.assign(call, recordedResult(value, 'tools', name));
      return value;
    });
  }
  const tools: BindingNamespace = {
    name: 'tools',
    functions,
    errorClass: { name: 'ToolCallError', memberProperty: 'toolName' },
  };
  const result = await runtime.run({ program: args.code, bindings: [tools], ...(signal ? { signal } : {}) });
  return { callId, language: runtime.language, description: args.description, code: args.code, result, calls };
}
