import type { ToolDefinition } from 'concord/contract';
import { objectFields, oneLine, sortedTools, type TypeWriter, typeNames, typeOf } from './shapes.js';

/**
 * The shapes Python SDK renderers write `tools` in: a class of async methods, a `Protocol` of plain methods that
 * return awaitables (with `__getitem__` overloads for names that are no identifier), methods inherited from a base
 * class, functional `TypedDict`s, `total=False` bases for optional keys, and `Optional`/`Union` beside `X | None`
 * under `from __future__ import annotations`. Each compiles and imports on CPython 3.9 and later.
 */
export const PYTHON_STYLES = [
  'methods',
  'protocol',
  'inherited',
  'functional',
  'total-false',
  'optional-union',
] as const;
/**
 * Styles with a mistake in them, for a gate to find: a tool left out, a class written twice, names decided with
 * this engine's Unicode tables, `NotRequired` imported from `typing` (3.11+), `X | None` evaluated on 3.9.
 */
export const PYTHON_FAULTS = [
  'methods-drops-a-tool',
  'methods-doubled',
  'methods-past-floor',
  'not-required',
  'pipe-none',
] as const;
export type PythonStyle = (typeof PYTHON_STYLES)[number] | (typeof PYTHON_FAULTS)[number];

const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield __peg_parser__ __debug__'.split(
    ' ',
  ),
);

/**
 * Whether a name is written bare (a method, a class field). ASCII letters, digits and `_`, no keyword, no leading
 * `_` (a private `__x` is mangled in a class body): every CPython reads such a name alike. The `past-floor` fault
 * asks this engine instead, whose Unicode tables are newer than an old CPython's.
 */
function isBare(name: string, style: PythonStyle): boolean {
  if (KEYWORDS.has(name)) return false;
  if (style === 'methods-past-floor') return /^[\p{ID_Start}][\p{ID_Continue}]*$/u.test(name) && !name.startsWith('_');
  return /^[A-Za-z][A-Za-z0-9_]*$/.test(name);
}

/** A Python string literal that any text fits in: everything past printable ASCII escaped. */
function pyString(text: string): string {
  let out = '"';
  for (const char of text) {
    const point = char.codePointAt(0)!;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (point >= 0x20 && point < 0x7f) out += char;
    else if (point < 0x100) out += `\\x${point.toString(16).padStart(2, '0')}`;
    else if (point < 0x10000) out += `\\u${point.toString(16).padStart(4, '0')}`;
    else out += `\\U${point.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** A docstring line no text can end early. */
const docstring = (tool: ToolDefinition, indent: string) => {
  const text = oneLine(tool.description).replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  return `${indent}"""${text === '' ? tool.name.replace(/\W/g, ' ') || 'A tool.' : text}"""`;
};

/** How a style writes unions: `Optional[X]` and `Union[…]`, or `X | None` where annotations are never evaluated. */
function writerFor(pipes: boolean): TypeWriter {
  return {
    unknown: 'Any',
    string: 'str',
    number: 'float',
    integer: 'int',
    boolean: 'bool',
    null: 'None',
    literal: (value) =>
      value === null
        ? 'None'
        : typeof value === 'number' && !Number.isInteger(value)
          ? 'float'
          : `Literal[${typeof value === 'string' ? pyString(value) : typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value)}]`,
    array: (item) => `List[${item}]`,
    union: (members) => {
      const unique = [...new Set(members)];
      const literals = unique.filter((m) => m.startsWith('Literal['));
      const others = unique.filter((m) => !m.startsWith('Literal['));
      const merged = [
        ...(literals.length > 0 ? [`Literal[${literals.map((m) => m.slice('Literal['.length, -1)).join(', ')}]`] : []),
        ...others,
      ];
      if (merged.length === 1) return merged[0]!;
      if (merged.includes('Any')) return 'Any';
      if (pipes) return merged.join(' | ');
      const nullable = merged.includes('None') && merged.length === 2;
      return nullable ? `Optional[${merged.find((m) => m !== 'None')}]` : `Union[${merged.join(', ')}]`;
    },
    object: () => 'Dict[str, Any]',
  };
}

/** The SDK block of `tools` in `style`. */
export function renderPython(tools: readonly ToolDefinition[], style: PythonStyle): string {
  const all = sortedTools(tools);
  const shown = style === 'methods-drops-a-tool' ? all.slice(0, -1) : all;
  const names = typeNames(shown, [
    'Tools',
    'ReadTools',
    'ToolCallError',
    'TypedDict',
    'Protocol',
    'Any',
    'Awaitable',
    'Callable',
    'Dict',
    'List',
    'Literal',
    'Optional',
    'Union',
    'overload',
  ]);
  const lines: string[] = [
    '# The tools, as `tools` in the program: call one with `await`, pass one dict, get its result.',
    '# Only `tools` and `ToolCallError` exist when the program runs; the classes below describe the dicts.',
  ];
  if (style === 'optional-union') lines.push('from __future__ import annotations', '');
  lines.push(
    'from typing import Any, Awaitable, Callable, Dict, List, Literal, Optional, Protocol, TypedDict, Union, overload',
  );
  if (style === 'not-required') lines.push('from typing import NotRequired');
  lines.push('', '');
  for (const tool of shown) {
    const name = names.get(tool.name)!;
    lines.push(...typedDict(`${name}Args`, tool.parameters, style), '');
    lines.push(...typedDict(`${name}Output`, tool.output ?? {}, style), '');
  }
  const bare = shown.filter((tool) => isBare(tool.name, style));
  const listed = shown.filter((tool) => !bare.includes(tool));
  const args = (tool: ToolDefinition) => `${names.get(tool.name)!}Args`;
  const output = (tool: ToolDefinition) => `${names.get(tool.name)!}Output`;
  const asyncMethod = (tool: ToolDefinition) => [
    `    async def ${tool.name}(self, args: ${args(tool)}) -> ${output(tool)}:`,
    docstring(tool, '        '),
    '',
  ];
  const listing = (tool: ToolDefinition) =>
    `    # await tools[${pyString(tool.name)}](args: ${args(tool)}) -> ${output(tool)}`;
  switch (style) {
    case 'protocol': {
      lines.push('class Tools(Protocol):');
      for (const tool of bare)
        lines.push(
          `    def ${tool.name}(self, args: ${args(tool)}) -> Awaitable[${output(tool)}]:`,
          docstring(tool, '        '),
          '',
        );
      // Names that are no identifier are reached by subscript: one typed overload of __getitem__ each.
      const many = listed.length > 1;
      for (const tool of listed) {
        if (many) lines.push('    @overload');
        lines.push(
          `    def __getitem__(self, name: Literal[${pyString(tool.name)}]) -> Callable[[${args(tool)}], Awaitable[${output(tool)}]]:`,
          docstring(tool, '        '),
          '',
        );
      }
      if (many)
        lines.push('    def __getitem__(self, name: str) -> Callable[[Any], Awaitable[Any]]:', '        ...', '');
      if (shown.length === 0) lines.push('    pass', '');
      break;
    }
    case 'inherited': {
      const half = Math.ceil(bare.length / 2);
      lines.push('class ReadTools(Protocol):');
      for (const tool of bare.slice(0, half)) lines.push(...asyncMethod(tool));
      if (half === 0) lines.push('    pass', '');
      lines.push('', 'class Tools(ReadTools, Protocol):');
      for (const tool of bare.slice(half)) lines.push(...asyncMethod(tool));
      for (const tool of listed) lines.push(listing(tool));
      if (bare.length - half === 0) lines.push('    pass');
      lines.push('');
      break;
    }
    default: {
      lines.push('class Tools:');
      for (const tool of bare) lines.push(...asyncMethod(tool));
      for (const tool of listed) lines.push(listing(tool));
      if (bare.length === 0) lines.push('    pass');
      lines.push('');
    }
  }
  lines.push('', 'class ToolCallError(Exception):', '    tool_name: str', '');
  if (style === 'methods-doubled') lines.push('', 'class ToolCallError(Exception):', '    tool: str', '');
  lines.push('', 'tools: Tools');
  return `${lines.join('\n')}\n`;
}

/**
 * The TypedDict of an object schema (anything else is a mapping of any keys). Class syntax where every key can be a
 * field; else the functional form, whose values are evaluated at import, so they never use `|`. Optional keys: a
 * `total=False` base (`total-false`), `NotRequired` (`not-required`), or the whole dict `total=False`.
 */
function typedDict(name: string, schema: unknown, style: PythonStyle): string[] {
  const fields = objectFields(schema) ?? [];
  const classSyntax =
    style !== 'functional' &&
    style !== 'protocol' &&
    fields.every((f) => /^[A-Za-z][A-Za-z0-9_]*$/.test(f.key) && !KEYWORDS.has(f.key));
  const typed = (f: (typeof fields)[number], pipes: boolean) => typeOf(f.schema, writerFor(pipes));
  const optional = fields.some((f) => !f.required);
  if (!classSyntax) {
    const entries = fields.map((f) => `${pyString(f.key)}: ${typed(f, false)}`).join(', ');
    return [`${name} = TypedDict(${pyString(name)}, {${entries}}${optional ? ', total=False' : ''})`];
  }
  const pipes = style === 'optional-union' || style === 'pipe-none';
  const body = (chosen: typeof fields, wrap = false) =>
    chosen.length === 0
      ? ['    pass']
      : chosen.map((f) => `    ${f.key}: ${wrap && !f.required ? `NotRequired[${typed(f, pipes)}]` : typed(f, pipes)}`);
  if (style === 'not-required') return [`class ${name}(TypedDict):`, ...body(fields, true)];
  if (style === 'total-false' && optional) {
    const base = `_${name}Optional`;
    return [
      `class ${base}(TypedDict, total=False):`,
      ...body(fields.filter((f) => !f.required)),
      '',
      '',
      `class ${name}(${base}):`,
      ...body(fields.filter((f) => f.required)),
    ];
  }
  return [`class ${name}(TypedDict${optional ? ', total=False' : ''}):`, ...body(fields)];
}
