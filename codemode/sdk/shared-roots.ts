import type { LoweredSchema } from '../schema/core.js';

/** A tool's whole arguments or whole result, as both renderers meet them in tool order. */
export interface RootUse {
  toolName: string;
  role: 'Args' | 'Output';
  /** The name the root takes as its tool's own type (`GetOrderOutput`). */
  ownName: string;
  /** The structure number of the root, when it is an object with fields (a type of its own); else undefined. */
  structure: number | undefined;
  /** The lowered root (its fields name a shared root that has one). */
  root: LoweredSchema;
}

/** A tool as both renderers hold it: its name and its lowered roots. */
interface RootedTool {
  name: string;
  parameters: LoweredSchema;
  output: LoweredSchema | undefined;
}

/**
 * Each tool's roots in tool order (its arguments, then its result when it declares one), with the name each takes as
 * its tool's own (`ownName`: `GetOrder` and a role make `GetOrderOutput`) and its structure as the renderer numbers it.
 */
export function rootUses(
  tools: readonly RootedTool[],
  ownBase: (tool: RootedTool, index: number) => string,
  structureOf: (lowered: LoweredSchema) => number | undefined,
): RootUse[] {
  return tools.flatMap((tool, index): RootUse[] => {
    const base = ownBase(tool, index);
    const use = (root: LoweredSchema, role: RootUse['role']): RootUse => ({
      toolName: tool.name,
      role,
      ownName: `${base}${role}`,
      structure: structureOf(root),
      root,
    });
    const args = use(tool.parameters, 'Args');
    return tool.output === undefined ? [args] : [args, use(tool.output, 'Output')];
  });
}

/**
 * The type name of each structure that is the whole arguments, or the whole result, of two or more tools, named after
 * what is true of every one of them: the last word all their names end in (`OrderOutput` for get_order, cancel_order
 * and refund_order), else its one field (`PathArgs` for the `{ path }` that create_directory and list_directory
 * take). Named after the first of them, the type would tell a model that `get_order` returns what `cancel_order` does
 * (`CancelOrderOutput`). `typeBase` makes a word a name in the SDK's language (undefined when the word cannot start
 * one), which the role follows (`OrderOutput`; `Output` alone for a `{ output }` several tools return). A structure
 * some tools take and others return, one with neither (`search` and `lookup` returning `{ hits, total }`), or one
 * whose name another type has (one in `taken`, another tool's own, an earlier shared root's) keeps the name of the
 * first tool it is a root of.
 */
export function sharedRootNames(
  uses: readonly RootUse[],
  typeBase: (word: string) => string | undefined,
  taken: ReadonlySet<string>,
): Map<number, string> {
  const groups = new Map<number, RootUse[]>();
  for (const use of uses) {
    if (use.structure === undefined) continue;
    let group = groups.get(use.structure);
    if (group === undefined) groups.set(use.structure, (group = []));
    group.push(use);
  }
  const ownNames = new Set(uses.map((use) => use.ownName));
  const named = new Map<number, string>();
  const chosen = new Set<string>();
  for (const [structure, group] of groups) {
    if (group.length < 2) continue;
    const role = group[0]!.role;
    if (group.some((use) => use.role !== role)) continue;
    const word = sharedLastWord(group) ?? soleField(group[0]!.root);
    const base = word === undefined ? undefined : typeBase(word);
    if (base === undefined) continue;
    const name = base === role ? base : `${base}${role}`;
    if (taken.has(name) || chosen.has(name)) continue;
    if (ownNames.has(name) && !group.some((use) => use.ownName === name)) continue;
    chosen.add(name);
    named.set(structure, name);
  }
  return named;
}

/** The last word every tool's name ends in, lower-cased, when they all end in one. */
function sharedLastWord(group: readonly RootUse[]): string | undefined {
  const word = lastWord(group[0]!.toolName);
  return word !== undefined && group.every((use) => lastWord(use.toolName) === word) ? word : undefined;
}

const startsWithLetter = (text: string): boolean => /^\p{L}/u.test(text);

/** The root's one field, when it has exactly one and it starts with a letter. */
function soleField(root: LoweredSchema): string | undefined {
  const fields = Object.keys((root.schema as { properties: object }).properties);
  return fields.length === 1 && startsWithLetter(fields[0]!) ? fields[0] : undefined;
}

/**
 * The last word of a tool name, lower-cased: `order` in `get_order`, `getOrder` and `API-get-order`; none when it does
 * not start with a letter (`v1_2`), which could not start a type name.
 */
function lastWord(toolName: string): string | undefined {
  const words = toolName.split(/[^\p{L}\p{N}]+|(?<=[\p{Ll}\p{N}])(?=\p{Lu})/u).filter((word) => word !== '');
  const last = words.at(-1);
  return last !== undefined && startsWithLetter(last) ? last.toLowerCase() : undefined;
}
