import type { ToolDefinition } from 'concord/contract';
import { oneLine, sortedTools, type TypeWriter, typeNames, typeOf } from './shapes.js';

/**
 * The shapes TypeScript SDK renderers write `tools` in. Each declares the same tools, each a way a type checker
 * reads: a mapped type over a union of keys, an interface that extends another, a declared class, a namespace of
 * functions, one alias per tool, an intersection of object types.
 */
export const TYPESCRIPT_STYLES = ['mapped', 'interface', 'class', 'namespace', 'aliases', 'intersection'] as const;
/**
 * Styles with a mistake in them, for a gate to find: a tool left out, a declaration written twice, every tool whose
 * name cannot be a function's left out of a namespace (a renderer that skips what it cannot write).
 */
export const TYPESCRIPT_FAULTS = ['mapped-drops-a-tool', 'interface-doubled', 'namespace-drops-quoted'] as const;
export type TypeScriptStyle = (typeof TYPESCRIPT_STYLES)[number] | (typeof TYPESCRIPT_FAULTS)[number];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Words no `function` of a namespace may be called (strict mode's reserved words among them). */
const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with implements interface let package private protected public static yield await arguments eval'.split(
    ' ',
  ),
);

const writer: TypeWriter = {
  unknown: 'unknown',
  string: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
  null: 'null',
  literal: (value) => JSON.stringify(value),
  array: (item) => `Array<${item}>`,
  union: (members) => {
    const unique = [...new Set(members)];
    return unique.length === 1 ? unique[0]! : `(${unique.join(' | ')})`;
  },
  object: (fields) =>
    fields.length === 0
      ? '{ [key: string]: unknown }'
      : `{ ${fields.map((f) => `${key(f.key)}${f.required ? '' : '?'}: ${f.type}`).join('; ')} }`,
};

/** A member name as a type literal writes it: bare when it can be, else quoted (`"2fa"`, `"new"` in methods). */
const key = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
/** A method's name: `new(…)` and `constructor(…)` mean something else in a type, so those are quoted. */
const methodKey = (name: string, inClass = false) =>
  name === 'constructor' && inClass
    ? '["constructor"]'
    : name === 'new' || name === 'constructor'
      ? JSON.stringify(name)
      : key(name);

/** A description as a doc comment that no text can end early. */
const doc = (tool: ToolDefinition, indent: string) => {
  const text = oneLine(tool.description).replace(/\*\//g, '*\\/');
  return text === '' ? [] : [`${indent}/** ${text} */`];
};

const HEADER = [
  '// The tools, as `tools` in the program: call one with `await`, pass one object, get its result.',
  '// A failed call throws ToolCallError, whose toolName says which tool failed.',
  'declare class ToolCallError extends Error {',
  '  readonly toolName: string;',
  '}',
  '',
];

/** The SDK block of `tools` in `style`. */
export function renderTypeScript(tools: readonly ToolDefinition[], style: TypeScriptStyle): string {
  const all = sortedTools(tools);
  const shown = style === 'mapped-drops-a-tool' ? all.slice(0, -1) : all;
  if (style === 'mapped' || style === 'mapped-drops-a-tool') return mapped(shown);
  const names = typeNames(shown, ['ToolCallError', 'Tools', 'ToolFunctions', 'ReadTools', 'MoreTools']);
  const lines = [...HEADER];
  if (style === 'interface-doubled') lines.push(...HEADER.slice(2));
  for (const tool of shown) {
    const name = names.get(tool.name)!;
    lines.push(`type ${name}Args = ${typeOf(tool.parameters, writer)};`);
    lines.push(`type ${name}Output = ${tool.output === undefined ? 'unknown' : typeOf(tool.output, writer)};`);
  }
  lines.push('');
  const signature = (tool: ToolDefinition) => {
    const name = names.get(tool.name)!;
    return `(args: ${name}Args): Promise<${name}Output>`;
  };
  const arrow = (tool: ToolDefinition) => {
    const name = names.get(tool.name)!;
    return `(args: ${name}Args) => Promise<${name}Output>`;
  };
  const half = Math.ceil(shown.length / 2);
  switch (style) {
    case 'interface':
    case 'interface-doubled': {
      lines.push('interface ReadTools {');
      for (const tool of shown.slice(0, half))
        lines.push(...doc(tool, '  '), `  ${methodKey(tool.name)}${signature(tool)};`);
      lines.push('}', '', 'interface Tools extends ReadTools {');
      for (const tool of shown.slice(half))
        lines.push(...doc(tool, '  '), `  ${methodKey(tool.name)}${signature(tool)};`);
      lines.push('}', '', 'declare const tools: Tools;');
      break;
    }
    case 'class': {
      lines.push('declare class Tools {');
      for (const tool of shown) lines.push(...doc(tool, '  '), `  ${methodKey(tool.name, true)}${signature(tool)};`);
      lines.push('}', '', 'declare const tools: Tools;');
      break;
    }
    case 'namespace':
    case 'namespace-drops-quoted': {
      const plain = shown.filter((tool) => IDENTIFIER.test(tool.name) && !RESERVED.has(tool.name));
      const quoted = style === 'namespace' ? shown.filter((tool) => !plain.includes(tool)) : [];
      lines.push(`declare namespace ${quoted.length === 0 ? 'tools' : 'ToolFunctions'} {`);
      for (const tool of plain) lines.push(...doc(tool, '  '), `  function ${tool.name}${signature(tool)};`);
      lines.push('}');
      if (quoted.length > 0) {
        // A function of a namespace needs a plain name: the others join it in an object type.
        lines.push('', 'declare const tools: typeof ToolFunctions & {');
        for (const tool of quoted) lines.push(...doc(tool, '  '), `  ${key(tool.name)}: ${arrow(tool)};`);
        lines.push('};');
      }
      break;
    }
    case 'aliases': {
      for (const tool of shown) lines.push(`type ${names.get(tool.name)!} = ${arrow(tool)};`);
      lines.push('', 'declare const tools: {');
      for (const tool of shown) lines.push(...doc(tool, '  '), `  ${key(tool.name)}: ${names.get(tool.name)!};`);
      lines.push('};');
      break;
    }
    case 'intersection': {
      lines.push('type ReadTools = {');
      for (const tool of shown.slice(0, half)) lines.push(...doc(tool, '  '), `  ${key(tool.name)}: ${arrow(tool)};`);
      lines.push('};', '', 'declare const tools: ReadTools & {');
      for (const tool of shown.slice(half)) lines.push(...doc(tool, '  '), `  ${key(tool.name)}: ${arrow(tool)};`);
      lines.push('};');
      break;
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Two maps from tool name to its arguments and to its output, and `tools` mapped over their keys. */
function mapped(tools: readonly ToolDefinition[]): string {
  const lines = [...HEADER, 'interface ToolArgsMap {'];
  for (const tool of tools) lines.push(...doc(tool, '  '), `  ${key(tool.name)}: ${typeOf(tool.parameters, writer)};`);
  lines.push('}', '', 'interface ToolOutputMap {');
  for (const tool of tools)
    lines.push(`  ${key(tool.name)}: ${tool.output === undefined ? 'unknown' : typeOf(tool.output, writer)};`);
  lines.push(
    '}',
    '',
    'type ToolName = keyof ToolArgsMap;',
    '',
    'declare const tools: { [K in ToolName]: (args: ToolArgsMap[K]) => Promise<ToolOutputMap[K]> };',
  );
  return `${lines.join('\n')}\n`;
}
