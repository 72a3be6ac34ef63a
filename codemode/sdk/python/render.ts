import type { CoreSchema, LoweredSchema } from '../../schema/core.js';
import { SchemaLowerings } from '../../schema/lower.js';
import type { PythonVersion, SdkRenderer, ToolDefinition } from '../../tools/types.js';
import { DEFAULT_PYTHON_FLOOR, isDunderName, type PythonNameRules, pythonNameRules } from '../identifiers/index.js';
import { sharedDefinitions } from '../shared-definitions.js';
import { rootUses, sharedRootNames } from '../shared-roots.js';
import { toolDescription } from '../tool-description.js';
import { ClassNames, exactHint } from './class-names.js';
import { namedClassesFirst, type WrittenClass } from './class-order.js';
import { pythonCommentLines, pythonDocstring, pythonStringLiteral } from './escape.js';
import { type PythonIdioms, pythonIdioms } from './idioms.js';
import { type ClassJob, definitionName, isClassDefinition, TypeExpressionWriter } from './type-expressions.js';
import { PYTHON_SDK_USAGE } from './usage.js';

const INDENT = '    ';

interface Tool {
  name: string;
  description: string;
  parameters: LoweredSchema;
  output: LoweredSchema | undefined;
}

/** The root to write; a root that refers to itself is a reference. */
function rootSchema(lowered: LoweredSchema): CoreSchema {
  return lowered.definitions.has('#') ? { $ref: '#' } : lowered.schema;
}

function orderKey(tool: ToolDefinition): string {
  try {
    return JSON.stringify([tool.description, tool.parameters, tool.output]) ?? '';
  } catch {
    return '';
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Tools in code-unit order of their names; equal names (a broken tool set) ordered by content. */
function sortedTools(tools: readonly ToolDefinition[]): Tool[] {
  const lowerings = new SchemaLowerings();
  const keyed = tools.map((tool) => ({ tool, name: typeof tool.name === 'string' ? tool.name : String(tool.name) }));
  const keys = new Map<ToolDefinition, string>();
  const keyOf = (tool: ToolDefinition): string => {
    let key = keys.get(tool);
    if (key === undefined) keys.set(tool, (key = orderKey(tool)));
    return key;
  };
  keyed.sort((a, b) => compareCodeUnits(a.name, b.name) || compareCodeUnits(keyOf(a.tool), keyOf(b.tool)));
  return keyed.map(({ tool, name }) => ({
    name,
    description: toolDescription(tool.description),
    parameters: lowerings.lower(tool.parameters),
    output: tool.output === undefined ? undefined : lowerings.lower(tool.output),
  }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function annotationText(schema: Record<string, unknown>): string {
  if (typeof schema.description === 'string' && schema.description !== '') return schema.description;
  return typeof schema.title === 'string' ? schema.title : '';
}

/** Whether a key can be a field line of a class-form TypedDict (`key: T`) and mean the same key. */
function isClassField(key: string, rules: PythonNameRules): boolean {
  return rules.isBareName(key) && !isDunderName(key);
}

/** One `TypedDict` statement: its name, the base it extends, its totality and its keys (sorted). */
interface TypedDictPart {
  name: string;
  base: string;
  total: boolean;
  keys: string[];
  classForm: boolean;
}

/**
 * How one object schema becomes `TypedDict` statements. From 3.11 one class marks optional keys
 * `NotRequired[...]`. Older floors have no such name at run time, so totality carries it: one class when
 * every key is required (or every key optional, `total=False`); otherwise the keys written in a functional
 * or base class (`_NameRequired` / `_NameOptional`) and the rest in `Name`, which extends it. Keys that
 * cannot be class-body fields need the functional form, which takes no base: when both groups hold such
 * keys, one `total=False` form keeps them all and a comment marks each required key.
 */
function typedDictParts(
  name: string,
  keys: string[],
  required: ReadonlySet<string>,
  rules: PythonNameRules,
  idioms: PythonIdioms,
): TypedDictPart[] {
  const classable = (group: string[]) => group.every((key) => isClassField(key, rules));
  const requiredKeys = keys.filter((key) => required.has(key));
  const optionalKeys = keys.filter((key) => !required.has(key));
  if (idioms.notRequired || optionalKeys.length === 0 || requiredKeys.length === 0) {
    return [
      {
        name,
        base: 'TypedDict',
        total: idioms.notRequired || optionalKeys.length === 0,
        keys,
        classForm: classable(keys),
      },
    ];
  }
  const requiredClassable = classable(requiredKeys);
  const optionalClassable = classable(optionalKeys);
  if (optionalClassable) {
    const base = `_${name}Required`;
    return [
      { name: base, base: 'TypedDict', total: true, keys: requiredKeys, classForm: requiredClassable },
      { name, base, total: false, keys: optionalKeys, classForm: true },
    ];
  }
  if (requiredClassable) {
    const base = `_${name}Optional`;
    return [
      { name: base, base: 'TypedDict', total: false, keys: optionalKeys, classForm: false },
      { name, base, total: true, keys: requiredKeys, classForm: true },
    ];
  }
  return [{ name, base: 'TypedDict', total: false, keys, classForm: false }];
}

/**
 * The `TypedDict` statements for one object schema (see `typedDictParts`), the description on the class the
 * SDK names. Field types are written in sorted key order whatever the parts, so nested class names do not
 * depend on the floor.
 */
function writeClass(job: ClassJob, writer: TypeExpressionWriter, names: ClassNames, idioms: PythonIdioms): string[] {
  const rules = names.rules;
  if (job.alias) {
    const description = annotationText(job.schema);
    const lines = description === '' ? [] : pythonCommentLines(description, '');
    return [...lines, `${job.token} = ${writer.write(job.schema, exactHint(job.name), 0, job.scope, job.depth)}`];
  }
  const properties = job.schema.properties as Record<string, unknown>;
  const keys = Object.keys(properties).sort(compareCodeUnits);
  const required = new Set(Array.isArray(job.schema.required) ? job.schema.required : []);
  const parts = typedDictParts(job.token, keys, required, rules, idioms);
  const partOf = new Map<string, TypedDictPart>();
  for (const part of parts) for (const key of part.keys) partOf.set(key, part);
  const wrapsOptional = (key: string) => idioms.notRequired && !required.has(key);

  const fieldLines = new Map<string, string[]>();
  for (const key of keys) {
    const schema = properties[key];
    const part = partOf.get(key)!;
    // Brackets already open around the type: `TypedDict(` and `{` in the functional form, `NotRequired[`.
    const depth = (part.classForm ? 0 : 2) + (wrapsOptional(key) ? 1 : 0);
    const segment = names.pascalCase(key) || 'Field';
    const hint = { short: `${job.scope.prefix}${segment}`, long: `${job.name}${segment}` };
    const type = writer.write(schema, hint, depth, job.scope, job.depth, true);
    const annotated = wrapsOptional(key) ? `NotRequired[${type}]` : type;
    const fieldIndent = part.classForm ? INDENT : INDENT + INDENT;
    const lines: string[] = [];
    if (isRecord(schema)) {
      const fieldDoc = annotationText(schema);
      if (fieldDoc !== '') lines.push(...pythonCommentLines(fieldDoc, fieldIndent));
    }
    // Only a form that mixes both kinds of key without NotRequired needs to say which ones are required.
    if (!part.total && required.has(key)) lines.push(`${fieldIndent}# required`);
    lines.push(
      part.classForm ? `${INDENT}${key}: ${annotated}` : `${fieldIndent}${pythonStringLiteral(key)}: ${annotated},`,
    );
    fieldLines.set(key, lines);
  }

  const description = job.documented ? annotationText(job.schema) : '';
  const lines: string[] = [];
  for (const part of parts) {
    if (lines.length > 0) lines.push('', '');
    const described = part.name === job.token && description !== '';
    if (part.classForm) {
      lines.push(`class ${part.name}(${part.base}${part.total ? '' : ', total=False'}):`);
      if (described) lines.push(`${INDENT}${pythonDocstring(description, INDENT)}`);
      for (const key of part.keys) lines.push(...fieldLines.get(key)!);
    } else {
      if (described) lines.push(...pythonCommentLines(description, ''));
      // A class name needs no escaping.
      lines.push(`${part.name} = TypedDict(`, `${INDENT}"${part.name}",`, `${INDENT}{`);
      for (const key of part.keys) lines.push(...fieldLines.get(key)!);
      lines.push(`${INDENT}},`);
      if (!part.total) lines.push(`${INDENT}total=False,`);
      lines.push(')');
    }
  }
  return lines;
}

/**
 * The Python `tools:sdk` section: usage prose, a `TypedDict` per object schema (nested classes before the
 * classes that use them), `ToolCallError`, a `Tools` class with one `async def` per tool in code-unit
 * order of names, and `tools: Tools`. The text imports as a module on every CPython from the floor
 * (default 3.9) up, whatever the tool names and schemas: it uses only the typing idioms the floor runs.
 * The same tool set in any order gives the same bytes.
 *
 * Names are stable: a `$defs` definition with one structure wherever its name appears is one class named
 * after it, written once before the tools' classes; the whole arguments or result of several tools is named
 * after what is true of each of them (`OrderOutput`, `PathArgs`); every other class is named after its own tool
 * and path. Adding, removing or renaming a tool changes only its own lines, unless it brings a real collision
 * (a definition name with another structure, two tools deriving one name), which the colliding classes
 * settle with a suffix derived from their own tool.
 * Throws only for an unsupported `pythonFloor` (a configuration error, not a tool-set one).
 */
export const renderPythonSdk: SdkRenderer = (tools, options) =>
  new PythonSdkWriter(options?.pythonFloor ?? DEFAULT_PYTHON_FLOOR, sortedTools(tools)).render();

/** The shared class of a `$defs` definition: its name, the token it is written as, and the namer of its classes. */
interface SharedClass {
  name: string;
  token: string;
  namer: ReturnType<ClassNames['namer']>;
}

/** One render of a tool set: the names it has given, the classes it has queued, the blocks it has written. */
class PythonSdkWriter {
  private readonly rules: PythonNameRules;
  private readonly idioms: PythonIdioms;
  private readonly names: ClassNames;
  private readonly writer: TypeExpressionWriter;
  private readonly blocks: string[][] = [];
  private nextJob = 0;
  private readonly shared: ReturnType<typeof sharedDefinitions>;
  private readonly sharedClasses = new Map<string, SharedClass>();
  private readonly structures = new Map<LoweredSchema, number | undefined>();
  private sharedRootName = new Map<number, string>();

  constructor(
    floor: PythonVersion,
    private readonly ordered: readonly Tool[],
  ) {
    this.rules = pythonNameRules(floor);
    this.idioms = pythonIdioms(floor);
    this.names = new ClassNames(this.rules);
    // A method of `Tools` named like a class would shadow it in the annotations that follow it.
    for (const tool of ordered) if (this.isMethodName(tool.name)) this.names.reserveMethod(tool.name);
    this.writer = new TypeExpressionWriter(this.names, this.idioms);
    const roots = ordered.flatMap((tool) =>
      tool.output === undefined ? [tool.parameters] : [tool.parameters, tool.output],
    );
    this.shared = sharedDefinitions(roots, (definition) => definitionName(this.names, definition));
    for (const { name } of this.shared.definitions) {
      const namer = this.names.namer(`$defs ${name}`);
      this.sharedClasses.set(name, { ...namer.allocate(name), namer });
    }
  }

  render(): string {
    this.blocks.push([...PYTHON_SDK_USAGE, this.idioms.imports]);
    this.writeSharedDefinitions();
    this.nameSharedRoots();
    const members = this.ordered.map((tool) => this.writeTool(tool));
    this.blocks.push(this.toolCallErrorClass(), toolsClass(members), ['tools: Tools']);
    return this.names.declare(`${this.blocks.map((block) => block.join('\n')).join('\n\n\n')}\n`);
  }

  private isMethodName(name: string): boolean {
    return this.rules.isBareName(name) && !isDunderName(name);
  }

  /** The shared definitions a root names, by key, as the tokens of their classes. */
  private tokensOf(lowered: LoweredSchema): Map<string, string> {
    return new Map(
      [...this.shared.byRoot.get(lowered)!].map(([key, name]) => [key, this.sharedClasses.get(name)!.token]),
    );
  }

  /** Writes every class queued since the last call, each after the classes it names. */
  private writePendingClasses(): void {
    const written: WrittenClass[] = [];
    this.writer.takeReferences();
    while (this.nextJob < this.writer.jobs.length) {
      const job = this.writer.jobs[this.nextJob++]!;
      const lines = writeClass(job, this.writer, this.names, this.idioms);
      written.push({ token: job.token, lines, names: this.writer.takeReferences() });
    }
    // Jobs are queued parent first; a class reads best after the classes its fields name, and must come after
    // every class it names.
    this.blocks.push(...namedClassesFirst(written.reverse()));
  }

  /** One class per `$defs` definition every tool shares by name, written before the tools' classes. */
  private writeSharedDefinitions(): void {
    for (const { name, definition, definitions, shared: keys } of this.shared.definitions) {
      const { token, namer } = this.sharedClasses.get(name)!;
      const scope = {
        definitions,
        names: new Map<string, string>(),
        merged: new Map<string, string>(),
        shared: new Map([...keys].map(([key, sharedName]) => [key, this.sharedClasses.get(sharedName)!.token])),
        rootHint: name,
        prefix: name,
        namer,
      };
      const schema = definition.schema as Record<string, unknown>;
      if (!definition.recursive) this.writer.claim(schema, scope, token);
      this.writer.jobs.push({
        name,
        token,
        schema,
        scope,
        alias: !isClassDefinition(definition),
        documented: true,
        depth: 1,
      });
      this.writePendingClasses();
    }
  }

  /** The structure of a root, read once per render. */
  private rootStructure(lowered: LoweredSchema): number | undefined {
    if (!this.structures.has(lowered))
      this.structures.set(lowered, this.writer.rootStructure(lowered, this.tokensOf(lowered)));
    return this.structures.get(lowered);
  }

  /** A structure that is the whole arguments or result of several tools is named after what they share. */
  private nameSharedRoots(): void {
    const uses = rootUses(
      this.ordered,
      (tool) => this.names.toolBase(tool.name),
      (lowered) => this.rootStructure(lowered),
    );
    this.sharedRootName = sharedRootNames(
      uses,
      (word) => {
        const base = this.names.pascalCase(word);
        const first = base.codePointAt(0);
        return first !== undefined && this.rules.isNameStart(first) ? base : undefined;
      },
      new Set(this.shared.definitions.map(({ name }) => name)),
    );
  }

  /** The classes of one tool's arguments and result, and its member of `Tools` (a method, or a listed name). */
  private writeTool(tool: Tool): string[] {
    const base = this.names.toolBase(tool.name);
    const namer = this.names.namer(tool.name);
    const written = new Map<string, string>();
    const own = sharedDefinitions(
      tool.output === undefined ? [tool.parameters] : [tool.parameters, tool.output],
      (definition) => definitionName(this.names, definition),
    );
    // A root several tools share is named after what they share, and the classes nested in it after its name.
    const writeRoot = (lowered: LoweredSchema, role: 'Args' | 'Output', depth: number) => {
      const structure = this.rootStructure(lowered);
      const sharedRoot = structure === undefined ? undefined : this.sharedRootName.get(structure);
      const scope = {
        definitions: lowered.definitions,
        names: written,
        merged: own.byRoot.get(lowered)!,
        shared: this.tokensOf(lowered),
        rootHint: `${base}${role}`,
        prefix: sharedRoot ?? base,
        namer,
      };
      return this.writer.write(rootSchema(lowered), exactHint(sharedRoot ?? `${base}${role}`), depth, scope);
    };
    // `async def name(self, args: T)`: one bracket is open around the argument type.
    const argsType = writeRoot(tool.parameters, 'Args', 1);
    this.writePendingClasses();
    const outputType = tool.output === undefined ? 'Any' : writeRoot(tool.output, 'Output', 0);
    this.writePendingClasses();
    if (this.isMethodName(tool.name)) {
      const body = tool.description === '' ? '...' : pythonDocstring(tool.description, INDENT + INDENT);
      return [
        `${INDENT}async def ${tool.name}(self, args: ${argsType}) -> ${outputType}:`,
        `${INDENT}${INDENT}${body}`,
      ];
    }
    const call = `await tools[${pythonStringLiteral(tool.name)}](args: ${argsType}) -> ${outputType}`;
    const lines = [`${INDENT}# ${call}`];
    if (tool.description !== '') lines.push(...pythonCommentLines(tool.description, INDENT, '  '));
    return lines;
  }

  private toolCallErrorClass(): string[] {
    return [
      'class ToolCallError(Exception):',
      `${INDENT}toolName: str`,
      `${INDENT}code: ${this.idioms.pipeUnions ? 'str | int | None' : 'Union[str, int, None]'}`,
      `${INDENT}data: Any`,
    ];
  }
}

/** `class Tools:` with each tool's member, a blank line between them. */
function toolsClass(members: readonly string[][]): string[] {
  const lines = ['class Tools:'];
  for (const [index, member] of members.entries()) {
    if (index > 0) lines.push('');
    lines.push(...member);
  }
  // Comment lines are not statements: a class listing only subscript-called tools still needs a body.
  if (!members.some((member) => member[0]!.startsWith(`${INDENT}async def`))) lines.push(`${INDENT}pass`);
  return lines;
}
