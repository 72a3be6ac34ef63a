import type { LoweredSchema } from '../../schema/core.js';
import { SchemaLowerings } from '../../schema/lower.js';
import type { SdkRenderer, ToolDefinition } from '../../tools/types.js';
import { declaredNames } from '../disambiguate.js';
import { sharedDefinitions } from '../shared-definitions.js';
import { rootUses, sharedRootNames } from '../shared-roots.js';
import { toolDescription } from '../tool-description.js';
import { TypeDeclarations } from './declarations.js';
import { docComment, propertyName } from './escape.js';
import { TYPESCRIPT_GLOBAL_TYPES } from './globals.js';
import { MAX_BASE_LENGTH, pascalBase, pascalWords, toolBases } from './names.js';
import { TYPESCRIPT_SDK_USAGE } from './usage.js';

const INDENT = '  ';

interface Tool {
  source: ToolDefinition;
  name: string;
  description: string;
  parameters: LoweredSchema;
  output: LoweredSchema | undefined;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Tools in code-unit order of names. Tools sharing a name (a broken set) are ordered by what each renders to
 * alone, so equal keys mean identical text and input order can never show through.
 */
function sortedTools(tools: readonly ToolDefinition[]): Tool[] {
  const lowerings = new SchemaLowerings();
  const alone = new Map<ToolDefinition, string>();
  const aloneText = (tool: ToolDefinition) => {
    let text = alone.get(tool);
    if (text === undefined) alone.set(tool, (text = renderTypeScriptSdk([tool])));
    return text;
  };
  return tools
    .map((source) => ({ source, name: typeof source.name === 'string' ? source.name : String(source.name) }))
    .sort((a, b) => compareCodeUnits(a.name, b.name) || compareCodeUnits(aloneText(a.source), aloneText(b.source)))
    .map(({ source, name }) => ({
      source,
      name,
      description: toolDescription(source.description),
      parameters: lowerings.lower(source.parameters),
      output: source.output === undefined ? undefined : lowerings.lower(source.output),
    }));
}

const TOOL_CALL_ERROR = [
  'declare class ToolCallError extends Error {',
  `${INDENT}readonly toolName: string;`,
  `${INDENT}readonly code?: string | number;`,
  `${INDENT}readonly data?: unknown;`,
  '}',
].join('\n');

/**
 * The TypeScript `tools:sdk` section: usage comments, `ToolCallError`, the types the tools' arguments and
 * results name, and the `tools` constant with one method per tool in code-unit order of names. The text is a
 * declaration file the compiler accepts for any tool set, and the same tool set in any order gives the same
 * bytes. Each distinct schema root is lowered once; a part no type can express becomes `unknown`.
 *
 * Each structure is written once: a `$defs` definition with one structure wherever its name appears is one
 * type named after it; an object with fields that appears again (in another tool, in the output, in another
 * field) is the type declared where it first appeared, in tool order; the whole arguments or result of several tools
 * is named after what is true of each of them (`OrderOutput`, `PathArgs`). A root that is one line (`string`,
 * `Record<string, unknown>`) is written in the signature.
 */
export const renderTypeScriptSdk: SdkRenderer = (tools) => {
  const ordered = sortedTools(tools);
  const bases = toolBases(ordered.map((tool) => tool.name));
  const roots = ordered.flatMap((tool) =>
    tool.output === undefined ? [tool.parameters] : [tool.parameters, tool.output],
  );
  const shared = sharedDefinitions(roots, (definition) => pascalBase(definition.name));
  // Names a shared definition cannot take as they are: the tools' own types, the SDK's and the library's.
  const taken = new Set([
    ...TYPESCRIPT_GLOBAL_TYPES,
    'ToolCallError',
    ...bases.flatMap((base) => [`${base}Args`, `${base}Output`]),
  ]);
  const sharedNames = new Map(
    declaredNames(
      shared.definitions.map(({ name }) => ({ owner: `$defs ${name}`, name })),
      taken,
    ).map((declared, index) => [shared.definitions[index]!.name, declared]),
  );
  const sharedOfKeys = (keys: ReadonlyMap<string, string>) =>
    new Map([...keys].map(([key, name]) => [key, sharedNames.get(name)!]));
  const sharedOf = (lowered: LoweredSchema) => sharedOfKeys(shared.byRoot.get(lowered)!);

  // Each shared definition is read in a root that reaches it, as if that root were the definition.
  const sharedRoots = shared.definitions.map(({ name, definition, definitions, shared: keys }) => ({
    name: sharedNames.get(name)!,
    key: definition.key,
    lowered: { schema: definition.schema, definitions, degradations: [] },
    shared: sharedOfKeys(keys),
  }));

  const declarations = new TypeDeclarations();
  for (const { lowered, shared: keys, key } of sharedRoots) declarations.count(lowered, keys, key);
  for (const root of roots) declarations.count(root, sharedOf(root));
  // Types nested in a tool's roots or in a shared definition are named after its base (`GetOrder_Ship`,
  // `Money_Amount`); a tool and a definition may have one base (`money`, `$defs.Money`), so the names each base took
  // are one set for the whole SDK.
  const takenByBase = new Map<string, Set<string>>();
  const takenOf = (base: string) => {
    let taken = takenByBase.get(base);
    if (taken === undefined) takenByBase.set(base, (taken = new Set()));
    return taken;
  };
  for (const { lowered, shared: keys, key, name } of sharedRoots)
    declarations.definition(lowered, key, name, { base: name, taken: takenOf(name), shared: keys });

  // A structure that is the whole arguments or result of several tools is named after what they share.
  const structures = new Map<LoweredSchema, number | undefined>();
  const rootStructure = (lowered: LoweredSchema) => {
    if (!structures.has(lowered)) structures.set(lowered, declarations.rootStructure(lowered, sharedOf(lowered)));
    return structures.get(lowered);
  };
  const uses = rootUses(ordered, (_, index) => bases[index]!, rootStructure);
  const sharedRootName = sharedRootNames(
    uses,
    (word) => {
      const base = pascalWords(word);
      return /^[A-Za-z]/.test(base) ? base.slice(0, MAX_BASE_LENGTH) : undefined;
    },
    new Set([...TYPESCRIPT_GLOBAL_TYPES, 'ToolCallError', ...sharedNames.values()]),
  );
  // A shared root's nested types are named after it (`OrderOutput_Ship`).
  const rootNames = (lowered: LoweredSchema, role: 'Args' | 'Output', base: string) => {
    const own = `${base}${role}`;
    const structure = rootStructure(lowered);
    const name = (structure !== undefined && sharedRootName.get(structure)) || own;
    const nestedBase = name === own ? base : name;
    return { name, names: { base: nestedBase, taken: takenOf(nestedBase), shared: sharedOf(lowered), self: own } };
  };

  const members: string[] = [];
  for (const [index, tool] of ordered.entries()) {
    const base = bases[index]!;
    const writeRoot = (lowered: LoweredSchema, role: 'Args' | 'Output') => {
      const { name, names } = rootNames(lowered, role, base);
      return declarations.root(lowered, name, names);
    };
    const args = writeRoot(tool.parameters, 'Args');
    const output = tool.output === undefined ? 'unknown' : writeRoot(tool.output, 'Output');
    // `new(...)` in a type literal would declare a construct signature, not a method named "new".
    const key = tool.name === 'new' ? `"new"` : propertyName(tool.name);
    members.push(...docComment(tool.description, INDENT), `${INDENT}${key}(args: ${args}): Promise<${output}>;`);
  }

  const blocks = [TYPESCRIPT_SDK_USAGE.join('\n'), TOOL_CALL_ERROR, ...declarations.blocks];
  blocks.push(
    members.length === 0 ? 'declare const tools: {};' : ['declare const tools: {', ...members, '};'].join('\n'),
  );
  return `${blocks.join('\n\n')}\n`;
};
