import type { JsonValue } from '../runtimes/seam/types.js';
import type { RegisteredTool, ToolDefinition } from './backend.js';

/**
 * A tool written with its own types: `execute` takes `Args` and returns `Output` (a plain interface is
 * fine), while `parameters` and `output` stay the JSON Schemas the model reads. The types are the author's
 * promise; what really crosses is checked at run time: the arguments are the program's JSON, and a result
 * that is not lossless JSON fails the call in the program.
 */
export interface TypedTool<Args, Output> extends ToolDefinition {
  execute(args: Args): Output | Promise<Output>;
}

/** A value whose shape survives JSON: what a tool's `Output` may be (functions, symbols and bigints do not). */
export type JsonShaped<T> = T extends string | number | boolean | null
  ? T
  : T extends (...args: never[]) => unknown
    ? never
    : T extends bigint | symbol | undefined
      ? never
      : T extends ReadonlyArray<infer Item>
        ? ReadonlyArray<JsonShaped<Item>>
        : { [K in keyof T]: K extends string ? JsonShaped<T[K]> : never };

/** Nothing for an `Output` of JSON shape; else a type error at `execute` naming the reason. */
type JsonResult<Output> = [Output] extends [JsonShaped<Output>]
  ? unknown
  : { execute: 'the result type has a part that does not survive JSON (a function, Date, Map, bigint, symbol)' };

/**
 * Turns a typed tool into the `RegisteredTool` a registry takes, with no cast on either side:
 *
 * ```ts
 * interface Order { id: string; total: number }
 * ctx.tools.register(defineTool<{ id: string }, Order>({
 *   name: 'get_order', description: 'One order by id.',
 *   parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
 *   output: { type: 'object', properties: { id: { type: 'string' }, total: { type: 'number' } } },
 *   async execute({ id }) { return orders.get(id); },
 * }));
 * ```
 *
 * A thrown error reaches the program as `ToolCallError`; throw a `ToolError` to give it a code and data it can read.
 */
export function defineTool<Args = JsonValue, Output = JsonValue>(
  tool: TypedTool<Args, Output> & JsonResult<Output>,
): RegisteredTool {
  const { execute, ...definition } = tool;
  return {
    ...definition,
    // The registry hands over the program's JSON; the result is checked as JSON where it leaves the host.
    execute: async (args: JsonValue) => (await execute(args as Args)) as JsonValue,
  };
}
