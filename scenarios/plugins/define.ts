import type { Context } from 'cordis';
import type { RegisteredTool } from '../../codemode/tools/types.js';
import type { JsonValue } from '../../runtimes/seam/types.js';
import '../../codemode/tools/context.js';

/** A fixture tool: its definition and a deterministic answer. */
export type FixtureTool = RegisteredTool;

/**
 * A cordis plugin (loadable by path from a `cordis.yml`) that registers fixed tools into `ctx.tools`;
 * they are unregistered when the plugin is disposed.
 */
export function fixturePlugin(name: string, tools: readonly FixtureTool[]) {
  return {
    name,
    inject: ['tools'],
    apply(ctx: Context) {
      for (const tool of tools) ctx.tools.register(tool);
    },
  };
}

/** Reads an object argument or fails the call with a message a program sees on its ToolCallError. */
export function objectArgs(tool: string, args: JsonValue): Record<string, JsonValue> {
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new Error(`${tool}: arguments must be an object`);
  return args;
}
