import type { CoreSchema, LoweredSchema } from '../../schema/core.js';
import { lowerSchema } from '../../schema/lower.js';
import type { SdkRenderer, ToolDefinition } from '../../tools/types.js';
import { DEFAULT_PYTHON_FLOOR, isDunderName, pythonNameRules, type PythonNameRules } from '../identifiers/index.js';
import { ClassNamer } from './class-names.js';
import { pythonCommentLines, pythonDocstring, pythonStringLiteral } from './escape.js';
import { TypeExpressionWriter, type ClassJob, type RefScope } from './type-expressions.js';
import { PYTHON_SDK_USAGE } from './usage.js';

/**
 * The names come from `typing`, not `typing_extensions`: the block is prompt text that the model reads and
 * that concord compiles (never executes) on every CPython from the floor up. `compile()` does not resolve
 * imports, so `NotRequired` (a run-time name only from 3.11) costs nothing on 3.9, and the standard spelling
 * is the one a model knows best.
 */
const IMPORTS = 'from typing import Any, Literal, NotRequired, TypedDict, Union';

const INDENT = '    ';

interface Tool {
  name: string;
  description: string;
  parameters: LoweredSchema;
  output: LoweredSchema | undefined;
}

/** The root to write and the scope its references resolve in; a root that refers to itself is a reference. */
function rootOf(lowered: LoweredSchema, hint: string): { schema: CoreSchema; scope: RefScope } {
  const scope: RefScope = { definitions: lowered.definitions, names: new Map(), rootHint: hint };
  return { schema: lowered.definitions.has('#') ? { $ref: '#' } : lowered.schema, scope };
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
    description: typeof tool.description === 'string' ? tool.description : '',
    parameters: lowerSchema(tool.parameters),
    output: tool.output === undefined ? undefined : lowerSchema(tool.output),
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

/**
 * The `TypedDict` for one object schema. Keys that cannot be written as class-body fields (keywords,
 * non-identifiers, private or dunder names) switch the whole class to the functional form, which holds
 * any key as a string.
 */
function writeClass(
  job: ClassJob,
  writer: TypeExpressionWriter,
  namer: ClassNamer,
  rules: PythonNameRules,
): string[] {
  if (job.alias) {
    const description = annotationText(job.schema);
    const lines = description === '' ? [] : pythonCommentLines(description, '');
    return [...lines, `${job.name} = ${writer.write(job.schema, job.name, 0, job.scope)}`];
  }
  const properties = job.schema.properties as Record<string, unknown>;
  const keys = Object.keys(properties).sort(compareCodeUnits);
  const required = new Set(Array.isArray(job.schema.required) ? job.schema.required : []);
  const classForm = keys.every((key) => isClassField(key, rules));
  const description = annotationText(job.schema);
  const lines: string[] = [];
  if (classForm) {
    lines.push(`class ${job.name}(TypedDict):`);
    if (description !== '') lines.push(`${INDENT}${pythonDocstring(description, INDENT)}`);
  } else {
    if (description !== '') lines.push(...pythonCommentLines(description, ''));
    lines.push(`${job.name} = TypedDict(`, `${INDENT}${pythonStringLiteral(job.name)},`, `${INDENT}{`);
  }
  const fieldIndent = classForm ? INDENT : INDENT + INDENT;
  for (const key of keys) {
    const schema = properties[key];
    const optional = !required.has(key);
    // Brackets already open around the type: `TypedDict(` and `{` in the functional form, `NotRequired[`.
    const depth = (classForm ? 0 : 2) + (optional ? 1 : 0);
    const segment = namer.pascalCase(key) || 'Field';
    const type = writer.write(schema, `${job.name}${segment}`, depth, job.scope);
    const annotated = optional ? `NotRequired[${type}]` : type;
    if (isRecord(schema)) {
      const fieldDoc = annotationText(schema);
      if (fieldDoc !== '') lines.push(...pythonCommentLines(fieldDoc, fieldIndent));
    }
    lines.push(classForm ? `${INDENT}${key}: ${annotated}` : `${fieldIndent}${pythonStringLiteral(key)}: ${annotated},`);
  }
  if (!classForm) lines.push(`${INDENT}},`, ')');
  return lines;
}

/**
 * The Python `tools:sdk` section: usage prose, a `TypedDict` per object schema (nested classes before the
 * classes that use them), `ToolCallError`, a `Tools` class with one `async def` per tool in code-unit
 * order of names, and `tools: Tools`. The text compiles on every CPython from the floor (default 3.9) up,
 * whatever the tool names and schemas; the same tool set in any order gives the same bytes.
 * Throws only for an unsupported `pythonFloor` (a configuration error, not a tool-set one).
 */
export const renderPythonSdk: SdkRenderer = (tools, options) => {
  const rules = pythonNameRules(options?.pythonFloor ?? DEFAULT_PYTHON_FLOOR);
  const ordered = sortedTools(tools);
  const namer = new ClassNamer(rules);
  const isMethodName = (name: string): boolean => rules.isBareName(name) && !isDunderName(name);
  // A method of `Tools` named like a class would shadow it in the annotations that follow it.
  for (const tool of ordered) if (isMethodName(tool.name)) namer.reserve(tool.name);

  const writer = new TypeExpressionWriter(namer);
  let nextJob = 0;
  const writePendingClasses = (): string[][] => {
    const blocks: string[][] = [];
    while (nextJob < writer.jobs.length) blocks.push(writeClass(writer.jobs[nextJob++]!, writer, namer, rules));
    // Jobs are queued parent first; a class reads best after the classes its fields name.
    return blocks.reverse();
  };

  const blocks: string[][] = [[...PYTHON_SDK_USAGE, IMPORTS]];
  const members: string[][] = [];
  for (const tool of ordered) {
    const base = namer.toolBase(tool.name);
    // `async def name(self, args: T)`: one bracket is open around the argument type.
    const args = rootOf(tool.parameters, `${base}Args`);
    const argsType = writer.write(args.schema, `${base}Args`, 1, args.scope);
    blocks.push(...writePendingClasses());
    const output = tool.output === undefined ? undefined : rootOf(tool.output, `${base}Output`);
    const outputType = output === undefined ? 'Any' : writer.write(output.schema, `${base}Output`, 0, output.scope);
    blocks.push(...writePendingClasses());
    if (isMethodName(tool.name)) {
      const body = tool.description === '' ? '...' : pythonDocstring(tool.description, INDENT + INDENT);
      members.push([
        `${INDENT}async def ${tool.name}(self, args: ${argsType}) -> ${outputType}:`,
        `${INDENT}${INDENT}${body}`,
      ]);
    } else {
      const call = `await tools[${pythonStringLiteral(tool.name)}](args: ${argsType}) -> ${outputType}`;
      const lines = [`${INDENT}# ${call}`];
      if (tool.description !== '') lines.push(...pythonCommentLines(tool.description, INDENT, '    '));
      members.push(lines);
    }
  }

  blocks.push([
    'class ToolCallError(Exception):',
    `${INDENT}"""Raised by a failed tool call."""`,
    `${INDENT}toolName: str`,
  ]);
  const toolsClass = ['class Tools:'];
  for (const [index, member] of members.entries()) {
    if (index > 0) toolsClass.push('');
    toolsClass.push(...member);
  }
  // Comment lines are not statements: a class listing only subscript-called tools still needs a body.
  if (!members.some((member) => member[0]!.startsWith(`${INDENT}async def`))) toolsClass.push(`${INDENT}pass`);
  blocks.push(toolsClass, ['tools: Tools']);
  return `${blocks.map((block) => block.join('\n')).join('\n\n\n')}\n`;
};
