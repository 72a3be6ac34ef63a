import { describe, expect, it } from 'vitest';
import { renderSdk, type ToolDefinition } from '../../codemode/index.js';
import { TokenCounter } from '../cache/token-counter.js';
import { sdkStats } from './sdk-stats.js';

const tool = (name: string, fields: number): ToolDefinition => ({
  name,
  description: `Tool ${name}.`,
  parameters: {
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: fields }, (_, i) => [`field_${i}`, { type: 'string' }])),
  },
});

describe('concord sdk --stats', () => {
  it.each(['python', 'typescript'] as const)(
    'says what each %s tool costs alone, costliest first',
    async (language) => {
      const tools = [tool('small', 1), tool('large', 12), tool('middle', 4)];
      const sdkOf = (some: readonly ToolDefinition[]) => renderSdk(language, [...some], {});
      const text = await sdkStats(language, tools, sdkOf);
      const counter = new TokenCounter();
      const tokens = async (some: readonly ToolDefinition[]) => (await counter.count(sdkOf(some)))!;
      const empty = await tokens([]);
      const lines = text.trimEnd().split('\n');
      expect(lines[0]).toBe(
        `${language} SDK of 3 tools: ${(await tokens(tools)).toLocaleString('en-US')} o200k_base tokens · ${Buffer.byteLength(sdkOf(tools)).toLocaleString('en-US')} bytes, ${Math.round((await tokens(tools)) / 3)} tokens per tool`,
      );
      const rows = lines.slice(3).map((line) => line.trim().split(/\s+/));
      expect(rows.map((row) => row[2])).toEqual(['large', 'middle', 'small']);
      // Each figure is the tool's SDK alone less the SDK of no tool.
      for (const [figure, , name] of rows) {
        const alone = tools.find((t) => t.name === name)!;
        expect(Number(figure!.replace(/,/g, ''))).toBe((await tokens([alone])) - empty);
      }
    },
  );
});
