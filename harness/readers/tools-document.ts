import { CheckInputError } from './input-error.js';
import type { ShownFunction } from './model-view.js';
import { functionEntries, isObject, isRequestBody, wireTool } from './request-body.js';

/** A function of a tools document, at its JSON path. */
export interface ListedFunction {
  path: string;
  tool: ShownFunction;
}

/**
 * The functions a tools document lists, each at its JSON path: a list of tools in any provider's shape, `{ tools }`
 * (an MCP `tools/list` result, bare or as a JSON-RPC response's `result`), or `{ initial, changes }` (a suite's
 * snapshot of the tools a session offered first, and what changed later). Undefined when the value is none of these;
 * a listed entry that names no function is bad input naming its path.
 */
export function toolsDocument(value: unknown, file: string): ListedFunction[] | undefined {
  const found = listOf(value);
  if (found === undefined) return undefined;
  return functionEntries(found.list, found.at).map(({ path, tool }) => {
    const named = wireTool(tool);
    if (named === undefined)
      throw new CheckInputError(
        file,
        `${path} names no function`,
        'give each tool a name: { "name": …, "description": …, "parameters": … }',
      );
    return { path, tool: named };
  });
}

function listOf(value: unknown): { list: unknown[]; at: string } | undefined {
  if (Array.isArray(value)) return value.every(isObject) && value.length > 0 ? { list: value, at: '$' } : undefined;
  if (!isObject(value)) return undefined;
  // A request body lists its tools too, beside a conversation: it is read as a request, not as a tools list.
  const document: Record<string, unknown> = value;
  if (isRequestBody(document)) return undefined;
  const { tools, result, initial } = document;
  if (Array.isArray(tools)) return { list: tools, at: '$.tools' };
  const listed = isObject(result) ? (result as Record<string, unknown>).tools : undefined;
  if (Array.isArray(listed)) return { list: listed, at: '$.result.tools' };
  if (Array.isArray(initial)) return { list: initial, at: '$.initial' };
  return undefined;
}
