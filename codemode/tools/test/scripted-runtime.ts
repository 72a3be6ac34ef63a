import type { CodeRuntime, JsonValue, Language, RunRequest, RunResult } from '../../../runtimes/seam/types.js';

/**
 * A program for the scripted runtime: JSON naming the tool calls to make, in order (or all at once), what
 * to log and what to return. `return: "$results"` returns each call's value, or `{error, toolName}` when
 * the call failed (what a program that catches `ToolCallError` would see).
 */
export interface ScriptedProgram {
  calls?: [string, JsonValue][];
  parallel?: boolean;
  log?: string[];
  return?: JsonValue;
  throw?: string;
}

/**
 * A tiny `CodeRuntime` for tests that are about the tool layer rather than a backend: it reads the
 * program as a `ScriptedProgram` and drives the bindings it is given. It keeps every request it saw.
 */
export function scriptedRuntime(language: Language | string = 'typescript'): CodeRuntime & { requests: RunRequest[] } {
  const requests: RunRequest[] = [];
  return {
    language: language as Language,
    isolation: 'worker-thread',
    requests,
    async run(request: RunRequest): Promise<RunResult> {
      requests.push(request);
      const program = JSON.parse(request.program) as ScriptedProgram;
      const tools = request.bindings.find((binding) => binding.name === 'tools');
      const member = tools?.errorClass?.memberProperty ?? 'member';
      const call = async ([name, args]: [string, JsonValue]): Promise<JsonValue> => {
        const fn = tools?.functions.get(name);
        if (fn === undefined) return { error: `no tool ${name}`, [member]: name };
        try {
          return await fn(args);
        } catch (error) {
          return { error: (error as Error).message, [member]: name };
        }
      };
      const calls = program.calls ?? [];
      const results: JsonValue[] = [];
      if (program.parallel) results.push(...(await Promise.all(calls.map(call))));
      else for (const each of calls) results.push(await call(each));
      const logs = program.log ?? [];
      if (program.throw !== undefined)
        return { logs, error: { kind: 'exception', name: 'Error', message: program.throw } };
      return { value: program.return === '$results' ? results : (program.return ?? null), logs };
    },
    async dispose() {},
  };
}
