import type { ToolDefinition } from 'concord/contract';

/** How this backend's Python renderer decides what it writes. */
export type PythonRenderer = 'careful' | 'upstream';

const PYTHON_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/**
 * Whether a tool name is written as a bare method. `careful`: ASCII letters, digits and `_` only, no keyword,
 * no `__` prefix (every CPython reads those alike). `upstream`: whatever this JavaScript engine calls an
 * identifier (`\p{ID_Start}`, `\p{ID_Continue}` of its Unicode version, U+200C included), as a renderer that
 * never looked at the floor does.
 */
function isBare(name: string, renderer: PythonRenderer): boolean {
  if (PYTHON_KEYWORDS.has(name)) return false;
  if (renderer === 'careful') return /^[A-Za-z][A-Za-z0-9_]*$/.test(name);
  return /^[\p{ID_Start}_][\p{ID_Continue}]*$/u.test(name);
}

const sorted = (tools: readonly ToolDefinition[]) =>
  [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
/**
 * A description on one line. A lone surrogate cannot be written to a source file, and CPython 3.13+ encodes
 * docstrings while compiling (an escaped `\ud800` fails there): it becomes U+FFFD.
 */
const oneLine = (text: unknown) =>
  (typeof text === 'string' ? text : '')
    .replace(/\p{Cs}/gu, '\uFFFD')
    .replace(/\s+/g, ' ')
    .trim();

/** The properties and required keys of an object schema, when it is one. */
function fieldsOf(schema: unknown): { name: string; required: boolean }[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const { properties, required } = schema as { properties?: Record<string, unknown>; required?: unknown };
  const must = new Set(Array.isArray(required) ? required : []);
  return Object.keys(properties ?? {}).map((name) => ({ name, required: must.has(name) }));
}

/** `GlossaryLookupArgs` for `glossary_lookup`; undefined when the name has no ASCII letter to build one from. */
function argsClass(name: string): string | undefined {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.length === 0 ? undefined : `${words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}Args`;
}

/**
 * The Python stubs. `careful` types every argument as `Dict[str, Any]`, which every CPython from 3.8 reads.
 * `upstream` writes one TypedDict per tool whose optional keys are `NotRequired[...]`, imported from `typing`,
 * which CPython has only from 3.11 on.
 */
export function renderPython(tools: readonly ToolDefinition[], renderer: PythonRenderer): string {
  const lines: string[] = [];
  const typed = renderer === 'upstream';
  lines.push(typed ? 'from typing import Any, Dict, NotRequired, TypedDict' : 'from typing import Any, Dict', '');
  const classes = new Map<string, string>();
  if (typed) {
    for (const tool of sorted(tools)) {
      const name = argsClass(tool.name);
      const fields = fieldsOf(tool.parameters).filter((f) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(f.name));
      if (name === undefined || classes.has(tool.name) || fields.length === 0) continue;
      classes.set(tool.name, name);
      lines.push(
        '',
        `class ${name}(TypedDict):`,
        ...fields.map((f) => `    ${f.name}: ${f.required ? 'Any' : 'NotRequired[Any]'}`),
        '',
      );
    }
  }
  lines.push('', 'class ToolCallError(Exception):', '    tool_name: str', '', '', 'class Tools:');
  let methods = 0;
  for (const tool of sorted(tools)) {
    if (isBare(tool.name, renderer)) {
      methods++;
      lines.push(
        `    async def ${tool.name}(self, args: ${classes.get(tool.name) ?? 'Dict[str, Any]'}) -> Any:`,
        `        ${JSON.stringify(oneLine(tool.description))}`,
        '        ...',
        '',
      );
    } else {
      lines.push(`    # await tools[${JSON.stringify(tool.name)}]({...}): ${oneLine(tool.description)}`, '');
    }
  }
  if (methods === 0) lines.push('    pass', '');
  lines.push('', 'tools: Tools', '');
  return lines.join('\n');
}

/** The TypeScript declarations: every tool a property of `tools`, named by a string key. */
export function renderTypeScript(tools: readonly ToolDefinition[]): string {
  const lines = [
    'declare class ToolCallError extends Error {',
    '  readonly toolName: string;',
    '}',
    '',
    'declare const tools: {',
  ];
  for (const tool of sorted(tools)) {
    lines.push(
      `  /** ${oneLine(tool.description).replace(/\*\//g, '*\\/')} */`,
      `  ${JSON.stringify(tool.name)}(args: Record<string, unknown>): Promise<any>;`,
    );
  }
  lines.push('};', '');
  return lines.join('\n');
}
