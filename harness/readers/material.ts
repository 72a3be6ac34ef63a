import { CheckInputError } from './input-error.js';
import { isObject, isRequestBody, readRequestBody, wireTool } from './request-body.js';
import { type RequestReadOptions, type RequestViews, requestViews } from './request-views.js';
import { toolsDocument } from './tools-document.js';

/**
 * What one piece of a suite's material shows a model: the views of the SDKs it shows, or that it shows none (and
 * why: it is no Code Mode prompt), or that it is nothing concord reads (and what it is).
 */
export type Reading = RequestViews | { other: string };

/** The keys only a function's definition has: a schema of its input, or the wrapper a provider puts it in. */
const DEFINITION_KEYS = ['parameters', 'input_schema', 'inputSchema', 'parametersJsonSchema', 'function', 'toolSpec'];

/**
 * One function's definition as a team keeps it (`{ name, description, parameters }` in any provider's shape), told
 * from any other object with a name (a package.json) by its schema or its wrapper.
 */
function oneFunction(value: unknown): ReturnType<typeof wireTool> {
  if (!isObject(value) || !DEFINITION_KEYS.some((key) => key in value)) return undefined;
  return wireTool(value);
}

/**
 * A JSON value a suite keeps, read for the SDKs it shows: a chat request body (see `requestViews`); a tools document
 * (a list of tools, `{ tools }`, an MCP `tools/list` result, `{ initial, changes }`) or one function, whose code tools'
 * descriptions may hold SDKs. Anything else is no material concord reads.
 */
export function jsonReading(value: unknown, source: string, options: RequestReadOptions = {}): Reading {
  if (isRequestBody(value)) return requestViews(readRequestBody(value, source), source, options);
  const listed = toolsDocument(value, source);
  if (listed !== undefined)
    return requestViews(
      { parts: [], wire: listed.map(({ path, tool }) => ({ place: `${source} ${path}`, tool })) },
      source,
      options,
    );
  const one = oneFunction(value);
  if (one !== undefined)
    return requestViews({ parts: [], wire: [{ place: `${source} $`, tool: one }] }, source, options);
  return { other: 'JSON that is neither a chat request body nor a list of tools' };
}

/** The views of a reading; a reading of none, or of something else, is bad input for a caller that needs an SDK. */
export function viewsOrRefuse(reading: Reading, source: string, hint: string) {
  if ('views' in reading) return reading.views;
  throw new CheckInputError(
    source,
    'none' in reading ? `shows no SDK (${reading.none}): it is not a Code Mode prompt` : `is ${reading.other}`,
    hint,
  );
}
