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
export const renderTypeScriptSdk: SdkRenderer = (tools) => new TypeScriptSdkWriter(sortedTools(tools)).render();

/** A shared `$defs` definition, read in a root that reaches it as if that root were the definition. */
interface SharedRoot {
  name: string;
  key: string;
  lowered: LoweredSchema;
  shared: Map<string, string>;
}

/** One render of a tool set: the names it has given and the declarations it has written. */
class TypeScriptSdkWriter {
  private readonly bases: string[];
  private readonly roots: LoweredSchema[];
  private readonly shared: ReturnType<typeof sharedDefinitions>;
  private readonly sharedNames: Map<string, string>;
  private readonly sharedRoots: SharedRoot[];
  private readonly declarations = new TypeDeclarations();
  /**
   * The names each base took: types nested in a tool's roots or in a shared definition are named after its base
   * (`GetOrder_Ship`, `Money_Amount`), and a tool and a definition may have one base (`money`, `$defs.Money`).
   */
  private readonly takenByBase = new Map<string, Set<string>>();
  private readonly structures = new Map<LoweredSchema, number | undefined>();
  private sharedRootName = new Map<number, string>();

  constructor(private readonly ordered: readonly Tool[]) {
    this.bases = toolBases(ordered.map((tool) => tool.name));
    this.roots = ordered.flatMap((tool) =>
      tool.output === undefined ? [tool.parameters] : [tool.parameters, tool.output],
    );
    this.shared = sharedDefinitions(this.roots, (definition) => pascalBase(definition.name));
    // Names a shared definition cannot take as they are: the tools' own types, the SDK's and the library's.
    const taken = new Set([
      ...TYPESCRIPT_GLOBAL_TYPES,
      'ToolCallError',
      ...this.bases.flatMap((base) => [`${base}Args`, `${base}Output`]),
    ]);
    this.sharedNames = new Map(
      declaredNames(
        this.shared.definitions.map(({ name }) => ({ owner: `$defs ${name}`, name })),
        taken,
      ).map((declared, index) => [this.shared.definitions[index]!.name, declared]),
    );
    this.sharedRoots = this.shared.definitions.map(({ name, definition, definitions, shared: keys }) => ({
      name: this.sharedNames.get(name)!,
      key: definition.key,
      lowered: { schema: definition.schema, definitions, degradations: [] },
      shared: this.sharedOfKeys(keys),
    }));
  }

  render(): string {
    for (const { lowered, shared: keys, key } of this.sharedRoots) this.declarations.count(lowered, keys, key);
    for (const root of this.roots) this.declarations.count(root, this.sharedOf(root));
    for (const { lowered, shared: keys, key, name } of this.sharedRoots)
      this.declarations.definition(lowered, key, name, { base: name, taken: this.takenOf(name), shared: keys });
    this.nameSharedRoots();
    const members = this.ordered.flatMap((tool, index) => this.member(tool, this.bases[index]!));
    const blocks = [TYPESCRIPT_SDK_USAGE.join('\n'), TOOL_CALL_ERROR, ...this.declarations.blocks];
    blocks.push(
      members.length === 0 ? 'declare const tools: {};' : ['declare const tools: {', ...members, '};'].join('\n'),
    );
    return `${blocks.join('\n\n')}\n`;
  }

  private sharedOfKeys(keys: ReadonlyMap<string, string>): Map<string, string> {
    return new Map([...keys].map(([key, name]) => [key, this.sharedNames.get(name)!]));
  }

  private sharedOf(lowered: LoweredSchema): Map<string, string> {
    return this.sharedOfKeys(this.shared.byRoot.get(lowered)!);
  }

  private takenOf(base: string): Set<string> {
    let taken = this.takenByBase.get(base);
    if (taken === undefined) this.takenByBase.set(base, (taken = new Set()));
    return taken;
  }

  /** The structure of a root, read once per render. */
  private rootStructure(lowered: LoweredSchema): number | undefined {
    if (!this.structures.has(lowered))
      this.structures.set(lowered, this.declarations.rootStructure(lowered, this.sharedOf(lowered)));
    return this.structures.get(lowered);
  }

  /** A structure that is the whole arguments or result of several tools is named after what they share. */
  private nameSharedRoots(): void {
    const uses = rootUses(
      this.ordered,
      (_, index) => this.bases[index]!,
      (lowered) => this.rootStructure(lowered),
    );
    this.sharedRootName = sharedRootNames(
      uses,
      (word) => {
        const base = pascalWords(word);
        return /^[A-Za-z]/.test(base) ? base.slice(0, MAX_BASE_LENGTH) : undefined;
      },
      new Set([...TYPESCRIPT_GLOBAL_TYPES, 'ToolCallError', ...this.sharedNames.values()]),
    );
  }

  /** The type of a root: a shared root's name (its nested types named after it, `OrderOutput_Ship`), else its own. */
  private writeRoot(lowered: LoweredSchema, role: 'Args' | 'Output', base: string): string {
    const own = `${base}${role}`;
    const structure = this.rootStructure(lowered);
    const name = (structure !== undefined && this.sharedRootName.get(structure)) || own;
    const nestedBase = name === own ? base : name;
    const names = { base: nestedBase, taken: this.takenOf(nestedBase), shared: this.sharedOf(lowered), self: own };
    return this.declarations.root(lowered, name, names);
  }

  /** The lines of one tool's method of `tools`, its description above it. */
  private member(tool: Tool, base: string): string[] {
    const args = this.writeRoot(tool.parameters, 'Args', base);
    const output = tool.output === undefined ? 'unknown' : this.writeRoot(tool.output, 'Output', base);
    // `new(...)` in a type literal would declare a construct signature, not a method named "new".
    const key = tool.name === 'new' ? `"new"` : propertyName(tool.name);
    return [...docComment(tool.description, INDENT), `${INDENT}${key}(args: ${args}): Promise<${output}>;`];
  }
}
