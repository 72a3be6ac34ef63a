import { memberPath } from '../schema/paths.js';
import type { SchemaViolation } from '../schema/types.js';
import type { ToolDefinition } from './types.js';

const KEYS = ['name', 'description', 'parameters', 'output'];

/**
 * Reads a tool set given as data (a JSON array of `{name, description, parameters, output}`).
 * Every structural problem is reported with its JSON path, and the tools are returned only when there is
 * none. The schemas themselves are not judged here.
 */
export function parseToolDefinitions(value: unknown): { tools: ToolDefinition[]; problems: SchemaViolation[] } {
  const problems: SchemaViolation[] = [];
  if (!Array.isArray(value)) {
    problems.push({ path: '$', message: 'expected an array of tools, each {name, description, parameters, output}' });
    return { tools: [], problems };
  }
  const firstPathOfName = new Map<string, string>();
  value.forEach((item: unknown, index) => {
    const path = `$[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push({ path, message: 'expected an object {name, description, parameters, output}' });
      return;
    }
    const fields = item as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      if (!KEYS.includes(key))
        problems.push({ path: memberPath(path, key), message: `unknown key (known: ${KEYS.join(', ')})` });
    }
    const { name, description } = fields;
    if (typeof name !== 'string') problems.push({ path: `${path}.name`, message: 'expected a string' });
    else if (name === '') problems.push({ path: `${path}.name`, message: 'expected a non-empty string' });
    else if (firstPathOfName.has(name)) {
      problems.push({
        path: `${path}.name`,
        message: `duplicate tool name ${JSON.stringify(name)} (first at ${firstPathOfName.get(name)})`,
      });
    } else firstPathOfName.set(name, path);
    if (typeof description !== 'string') problems.push({ path: `${path}.description`, message: 'expected a string' });
    if (!Object.hasOwn(fields, 'parameters')) {
      problems.push({
        path: `${path}.parameters`,
        message: 'missing: give the JSON schema of the arguments ({} accepts any)',
      });
    }
  });
  if (problems.length > 0) return { tools: [], problems };
  return { tools: value.map((item: Record<string, unknown>) => toDefinition(item)), problems };
}

function toDefinition({ name, description, parameters, output }: Record<string, unknown>): ToolDefinition {
  return {
    name: name as string,
    description: description as string,
    parameters,
    ...(output === undefined ? {} : { output }),
  };
}
