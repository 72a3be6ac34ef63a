import { describe, expect, it } from 'vitest';
import { renderSdk, type ToolDefinition } from '../../codemode/index.js';
import { TokenCounter } from '../cache/token-counter.js';
import { sdkStats, withoutDescriptions } from './sdk-stats.js';

const tool = (name: string, fields: number, words = 1): ToolDefinition => ({
  name,
  description: `Tool ${name}.${' It looks things up.'.repeat(words)}`,
  parameters: {
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: fields }, (_, i) => [`field_${i}`, { type: 'string', description: `Field ${i}.` }]),
    ),
  },
});
const figure = (cell: string) => Number(cell.replace(/,/g, ''));

describe('concord sdk --stats', () => {
  it.each(['python', 'typescript'] as const)(
    'says what each %s tool costs alone, costliest first, and how much of it is its descriptions',
    async (language) => {
      const tools = [tool('small', 1), tool('large', 12), tool('middle', 4), tool('wordy', 1, 80)];
      const sdkOf = (some: readonly ToolDefinition[]) => renderSdk(language, [...some], {});
      const text = await sdkStats(language, tools, sdkOf);
      const counter = new TokenCounter();
      const tokens = async (some: readonly ToolDefinition[]) => (await counter.count(sdkOf(some)))!;
      const empty = await tokens([]);
      const all = await tokens(tools);
      const bare = await tokens(tools.map(withoutDescriptions));
      const lines = text.trimEnd().split('\n');
      expect(lines[0]).toBe(
        `${language} SDK of 4 tools: ${all.toLocaleString('en-US')} o200k_base tokens · ${Buffer.byteLength(sdkOf(tools)).toLocaleString('en-US')} bytes, ${Math.round(all / 4)} tokens per tool`,
      );
      expect(lines[1]).toBe(
        `  described (the tools' own descriptions): ${(all - bare).toLocaleString('en-US')} tokens; the types, signatures and names the SDK writes: ${(bare - empty).toLocaleString('en-US')}`,
      );
      const rows = lines.slice(4).map((line) => line.trim().split(/\s+/));
      expect(rows.map((row) => row[3])).toEqual(['wordy', 'large', 'middle', 'small']);
      for (const [cost, described, , name] of rows) {
        const alone = tools.find((t) => t.name === name)!;
        // The tool's SDK alone less the SDK of no tool; of that, what leaving its descriptions out saves.
        expect(figure(cost!)).toBe((await tokens([alone])) - empty);
        expect(figure(described!)).toBe((await tokens([alone])) - (await tokens([withoutDescriptions(alone)])));
        expect(figure(described!)).toBeGreaterThan(0);
      }
      // The wordy tool costs most for its text, the large one for its types.
      const described = Object.fromEntries(rows.map((row) => [row[3], figure(row[1]!)]));
      expect(described.wordy).toBeGreaterThan(described.large!);
    },
  );
});

describe('withoutDescriptions', () => {
  it('leaves out every description of the tool and its schemas, and nothing that is data', () => {
    const bare = withoutDescriptions({
      name: 'note',
      description: 'Writes a note.',
      parameters: {
        type: 'object',
        description: 'The note.',
        properties: {
          // A field named description is a field, not a description.
          description: { type: 'string', description: 'What the note says.' },
          style: {
            anyOf: [{ type: 'string', description: 'A named style.' }, { $ref: '#/$defs/Style' }],
            default: { description: 'kept: a default is data' },
            examples: [{ description: 'kept too' }],
          },
        },
        required: ['description'],
        $defs: { Style: { type: 'object', description: 'A style.', properties: { bold: { type: 'boolean' } } } },
      },
      output: { type: 'array', items: { type: 'string', description: 'A line.' }, const: [{ description: 'data' }] },
    });
    expect(bare).toEqual({
      name: 'note',
      description: '',
      parameters: {
        type: 'object',
        properties: {
          description: { type: 'string' },
          style: {
            anyOf: [{ type: 'string' }, { $ref: '#/$defs/Style' }],
            default: { description: 'kept: a default is data' },
            examples: [{ description: 'kept too' }],
          },
        },
        required: ['description'],
        $defs: { Style: { type: 'object', properties: { bold: { type: 'boolean' } } } },
      },
      output: { type: 'array', items: { type: 'string' }, const: [{ description: 'data' }] },
    });
  });

  it('adds no output to a tool that has none', () => {
    expect(withoutDescriptions({ name: 'ping', description: 'Answers.', parameters: {} })).toEqual({
      name: 'ping',
      description: '',
      parameters: {},
    });
  });
});
