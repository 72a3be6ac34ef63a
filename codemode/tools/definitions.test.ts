import { describe, expect, it } from 'vitest';
import { parseToolDefinitions } from './definitions.js';

describe('reading a tool set given as data', () => {
  it('returns the tools, keeping an absent output absent', () => {
    const lookup = {
      name: 'lookup',
      description: 'Finds.',
      parameters: { type: 'object' },
      output: { type: 'string' },
    };
    const bare = { name: 'bare', description: '', parameters: {} };
    expect(parseToolDefinitions([lookup, bare])).toEqual({ tools: [lookup, bare], problems: [] });
    expect(Object.hasOwn(parseToolDefinitions([bare]).tools[0]!, 'output')).toBe(false);
  });

  it('wants an array', () => {
    expect(parseToolDefinitions({ name: 'x' }).problems).toEqual([
      { path: '$', message: 'expected an array of tools, each {name, description, parameters, output}' },
    ]);
  });

  it('reports every problem with its path and returns no tools', () => {
    const { tools, problems } = parseToolDefinitions([
      null,
      { name: '', description: 3, parameters: {} },
      { name: 'ok', description: '', parameters: {}, 'a-b': 1 },
      { name: 'ok', description: '' },
    ]);
    expect(tools).toEqual([]);
    expect(problems).toEqual([
      { path: '$[0]', message: 'expected an object {name, description, parameters, output}' },
      { path: '$[1].name', message: 'expected a non-empty string' },
      { path: '$[1].description', message: 'expected a string' },
      { path: '$[2]["a-b"]', message: 'unknown key (known: name, description, parameters, output)' },
      { path: '$[3].name', message: 'duplicate tool name "ok" (first at $[2])' },
      { path: '$[3].parameters', message: 'missing: give the JSON schema of the arguments ({} accepts any)' },
    ]);
  });

  it('treats a parsed "__proto__" key as an ordinary unknown key', () => {
    const { problems } = parseToolDefinitions(
      JSON.parse('[{"name":"a","description":"","parameters":{},"__proto__":{"x":1}}]'),
    );
    expect(problems).toEqual([
      { path: '$[0].__proto__', message: 'unknown key (known: name, description, parameters, output)' },
    ]);
  });
});
