import type { ToolDefinition } from 'concord/contract';

/**
 * Whether a tool name can be written as a Python attribute. Naive on purpose: it asks this JavaScript
 * engine's Unicode tables (`\p{ID_Start}`, `\p{ID_Continue}`), not those of the oldest CPython the stubs
 * must serve, so a letter newer than that CPython's Unicode version passes here and breaks the stubs there.
 */
export function isPythonIdentifier(name: string): boolean {
  return /^[\p{ID_Start}_][\p{ID_Continue}]*$/u.test(name) && !PYTHON_KEYWORDS.has(name);
}

const PYTHON_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/** A docstring that stays one string literal whatever the description holds. */
function docstring(text: string): string {
  return JSON.stringify(text.replace(/\s+/g, ' ').trim());
}

/** The Python stubs a program is written against: a `Tools` class with one method per tool, and `tools`. */
export function renderPythonSdk(tools: readonly ToolDefinition[]): string {
  const sorted = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = [
    '# Call a tool from your program as `await tools.name({...})` with a dict of arguments.',
    '# Only `tools` and `ToolCallError` exist when the program runs; the classes below are for reading.',
    'from typing import Any',
    '',
    '',
    'class ToolCallError(Exception):',
    '    toolName: str',
    '',
    '',
    'class Tools:',
  ];
  let methods = 0;
  for (const tool of sorted) {
    if (isPythonIdentifier(tool.name)) {
      methods++;
      lines.push(
        `    async def ${tool.name}(self, args: dict[str, Any]) -> Any:`,
        `        ${docstring(tool.description)}`,
        '        ...',
        '',
      );
    } else {
      lines.push(
        `    # await tools[${JSON.stringify(tool.name)}]({...}): ${tool.description.replace(/\s+/g, ' ').trim()}`,
        '',
      );
    }
  }
  // A class body of comments alone is no body at all.
  if (methods === 0) lines.push('    pass', '');
  lines.push('', 'tools: Tools', '');
  return lines.join('\n');
}
