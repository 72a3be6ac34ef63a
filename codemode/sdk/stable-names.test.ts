import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validSchemaArbitrary } from '../schema/test/arbitrary.js';
import type { ToolDefinition } from '../tools/types.js';
import { renderPythonSdk } from './python/index.js';
import { addedLines } from './test/added-lines.js';
import { renderTypeScriptSdk } from './typescript/index.js';

const lineCount = (text: string) => text.split('\n').length;

/**
 * `schema` with its `$defs` and its fields named `Zq…`/`zq…`, so the added tool brings definitions no other tool
 * names and objects of no other tool's structure (one of the same structure would be written once, under the
 * name it has where it first appears).
 */
function ownDefinitions(schema: unknown): unknown {
  const rename = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (key === '$defs' && typeof field === 'object' && field !== null) {
        out[key] = Object.fromEntries(
          Object.entries(field).map(([name, definition]) => [`Zq${name}`, rename(definition)]),
        );
      } else if (key === 'properties' && typeof field === 'object' && field !== null && !Array.isArray(field)) {
        out[key] = Object.fromEntries(Object.entries(field).map(([name, property]) => [`zq${name}`, rename(property)]));
      } else if (key === 'required' && Array.isArray(field)) {
        out[key] = field.map((name) => (typeof name === 'string' ? `zq${name}` : name));
      } else if (key === '$ref' && typeof field === 'string') out[key] = field.replace('#/$defs/', '#/$defs/Zq');
      else if (key === 'title' && (field === 'Node' || field === 'Loop')) out[key] = `Zq${field}`;
      else out[key] = rename(field);
    }
    return out;
  };
  return rename(schema);
}

/**
 * `sdk` without the `pass` that holds the place of a Python Tools class with no method yet (its tools may all
 * be listed in comments): the one line the first method takes away, which a reviewer reads as such.
 */
function withoutToolsPlaceholder(sdk: string): string {
  const lines = sdk.split('\n');
  const classAt = lines.indexOf('class Tools:');
  const end = lines.indexOf('tools: Tools', classAt);
  const placeholder = lines.findIndex((line, at) => at > classAt && at < end && line === '    pass');
  return placeholder < 0 ? sdk : [...lines.slice(0, placeholder), ...lines.slice(placeholder + 1)].join('\n');
}

const renderers = [
  // Each language adds the tool's own lines; the Tools listing's empty body goes when the first member comes.
  { language: 'python', render: renderPythonSdk, listing: 2, unchanged: withoutToolsPlaceholder },
  { language: 'typescript', render: renderTypeScriptSdk, listing: -1, unchanged: (sdk: string) => sdk },
] as const;

/** Tools with distinct identifier-like names (none starting with z), sharing `$defs` names as pydantic writes them. */
const toolsArbitrary = fc.uniqueArray(
  fc.record({
    name: fc.stringMatching(/^[a-y][a-y0-9]{0,8}$/),
    description: fc.string({ maxLength: 20 }),
    parameters: validSchemaArbitrary(3),
    output: validSchemaArbitrary(3),
  }),
  { selector: (tool) => tool.name.toLowerCase(), minLength: 1, maxLength: 5 },
);

describe('adding a tool that sorts first', () => {
  for (const { language, render, listing, unchanged } of renderers) {
    it(`adds only that tool's lines to the ${language} SDK and renames nothing`, () => {
      fc.assert(
        fc.property(toolsArbitrary, validSchemaArbitrary(3), validSchemaArbitrary(3), (tools, parameters, output) => {
          const added: ToolDefinition = {
            name: '_zq_added',
            description: 'Added.',
            parameters: ownDefinitions(parameters),
            output: ownDefinitions(output),
          };
          const before = unchanged(render(tools));
          const after = render([added, ...tools]);
          // No line removed or renamed, and what is added is what the tool renders to alone.
          expect(addedLines(before, after)?.length).toBe(lineCount(render([added])) - lineCount(render([])) + listing);
        }),
        // A set whose one tool is a keyword, so listed only in a comment: the Tools class holds a placeholder.
        {
          numRuns: 120,
          examples: [
            [
              [{ name: 'as', description: '', parameters: { enum: [null] }, output: { type: 'string' } }],
              {},
              { type: 'integer' },
            ],
          ],
        },
      );
    });
  }
});

describe('adding a tool that shares a structure', () => {
  const result = () => ({ type: 'object', properties: { id: { type: 'string' }, status: { type: 'string' } } });
  const tool = (name: string): ToolDefinition => ({
    name,
    description: `${name}.`,
    parameters: { type: 'object', properties: { [`${name}_id`]: { type: 'string' } } },
    output: result(),
  });
  const before = [tool('get_order'), tool('refund')];

  for (const { language, render } of renderers) {
    it(`after the tools that share it adds its own lines, naming the shared ${language} type`, () => {
      const added = addedLines(render(before), render([...before, tool('track')]));
      expect(added).toBeDefined();
      expect(added!.join('\n')).toContain('GetOrderOutput');
      expect(added!.join('\n')).not.toMatch(/TrackOutput/);
    });

    it(`that ends in the word all their names end in adds its own lines to the ${language} SDK`, () => {
      const orders = [tool('get_order'), tool('refund_order')];
      const added = addedLines(render(orders), render([...orders, tool('track_order')]));
      expect(added).toBeDefined();
      expect(added!.join('\n')).toContain('OrderOutput');
      expect(added!.join('\n')).not.toContain('TrackOrderOutput');
    });

    it(`that changes what their names share renames the shared ${language} type: the diff shows it`, () => {
      const orders = [tool('get_order'), tool('refund_order')];
      expect(render(orders)).toContain('OrderOutput');
      expect(render(orders)).not.toContain('GetOrderOutput');
      // `lookup` does not end in `order`: the type is named after the first tool that returns it, as any other.
      const after = render([...orders, tool('lookup')]);
      expect(addedLines(render(orders), after)).toBeUndefined();
      expect(after).toContain('GetOrderOutput');
    });

    it(`before them gives the shared ${language} type its own name: the diff renames it`, () => {
      const after = render([tool('cancel'), ...before]);
      // Not only added lines: the type the others return is now named after the tool that sorts first.
      expect(addedLines(render(before), after)).toBeUndefined();
      expect(after).toContain('CancelOutput');
      expect(after).not.toContain('GetOrderOutput');
    });
  }
});
