import { recordedResult } from '../../runtimes/seam/calls.js';
import { observeRuns } from '../../runtimes/seam/observe.js';
import type {
  BindingFunction,
  BindingNamespace,
  CodeRuntime,
  JsonValue,
  RunRequest,
  RunResult,
} from '../../runtimes/seam/types.js';

/** One call a program made to a binding, in the order the calls started. */
export interface ObservedCall {
  /** `namespace.member`, or just the member for the `tools` namespace. */
  tool: string;
  args: JsonValue;
  value?: JsonValue;
  /** The message of the error the program received. */
  error?: string;
}

/** One program as it crossed the runtime seam: what ran, what it called, what came back. */
export interface ObservedRun {
  code: string;
  /** The members of the `tools` namespace the run was given: every tool the app registered. */
  tools: string[];
  calls: ObservedCall[];
  result: RunResult;
}

/**
 * Records every run that crosses `runtime` until `stop()`: the program text, each binding call with its
 * arguments and answer (a result that is not JSON as the failure the program receives), and the result.
 * Values are copied as they cross, so later mutation cannot rewrite the record.
 */
export function recordRuntimeSeam(runtime: CodeRuntime): { runs: ObservedRun[]; stop(): void } {
  const runs: ObservedRun[] = [];
  const stop = observeRuns(runtime, async (request, run) => {
    const calls: ObservedCall[] = [];
    const tools = [...(request.bindings.find((ns) => ns.name === 'tools')?.functions.keys() ?? [])];
    const observed: ObservedRun = { code: request.program, tools, calls, result: { logs: [] } };
    runs.push(observed);
    const bindings = request.bindings.map((ns) => recordNamespace(ns, calls));
    observed.result = await run({ ...request, bindings } satisfies RunRequest);
    return observed.result;
  });
  return { runs, stop };
}

function recordNamespace(ns: BindingNamespace, calls: ObservedCall[]): BindingNamespace {
  const functions = new Map<string, BindingFunction>();
  for (const [member, fn] of ns.functions) {
    functions.set(member, async (args) => {
      const call: ObservedCall = {
        tool: ns.name === 'tools' ? member : `${ns.name}.${member}`,
        args: structuredClone(args),
      };
      calls.push(call);
      let value: JsonValue;
      try {
        value = await fn(args);
      } catch (error) {
        call.error = error instanceof Error ? error.message : String(error);
        throw error;
      }
      Object.assign(call, recordedResult(value, ns.name, member));
      return value;
    });
  }
  return { ...ns, functions };
}
