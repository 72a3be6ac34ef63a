import type { ToolDefinition } from '../../codemode/index.js';
import { SDK_ENCODING, TokenCounter } from '../cache/token-counter.js';

const number = (value: number) => value.toLocaleString('en-US');

/** Keywords whose values are data, not schemas: a `description` key inside them is part of the value. */
const DATA_KEYWORDS = new Set(['const', 'default', 'enum', 'example', 'examples']);

/** A schema with every `description` string left out, at any depth; values it holds as data are kept whole. */
function schemaWithoutDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(schemaWithoutDescriptions);
  if (typeof schema !== 'object' || schema === null) return schema;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description' && typeof value === 'string') continue;
    kept[key] = DATA_KEYWORDS.has(key) ? value : schemaWithoutDescriptions(value);
  }
  return kept;
}

/** A tool with no description of its own or of any field: what is left is what a renderer writes of its own. */
export function withoutDescriptions(tool: ToolDefinition): ToolDefinition {
  const bare: ToolDefinition = { ...tool, description: '', parameters: schemaWithoutDescriptions(tool.parameters) };
  if (tool.output !== undefined) bare.output = schemaWithoutDescriptions(tool.output);
  return bare;
}

/**
 * What an SDK costs, in all and for each tool, costliest first: a tool's figure is the SDK of that tool alone less
 * the SDK of no tool (its signature, its description and every type it names, shared ones included), and of that,
 * what its descriptions cost (the figure less that of the tool with every description left out), so a team sees
 * which tool to trim and whether the cost is its own text or its types. Counted in SDK_ENCODING with js-tiktoken;
 * without it, bytes only and a line saying so.
 */
export async function sdkStats(
  language: string,
  tools: readonly ToolDefinition[],
  sdkOf: (tools: readonly ToolDefinition[]) => string,
): Promise<string> {
  const counter = new TokenCounter();
  const measure = async (text: string) => ({ bytes: Buffer.byteLength(text), tokens: await counter.count(text) });
  const whole = await measure(sdkOf(tools));
  const bare = await measure(sdkOf(tools.map(withoutDescriptions)));
  const empty = await measure(sdkOf([]));
  const counted = whole.tokens !== undefined;
  /** The figure a table shows: tokens when counted, else bytes. */
  const figure = (size: { bytes: number; tokens: number | undefined }) => (counted ? size.tokens! : size.bytes);
  const rows: { name: string; bytes: number; figure: number; described: number }[] = [];
  for (const tool of tools) {
    const alone = await measure(sdkOf([tool]));
    const aloneBare = await measure(sdkOf([withoutDescriptions(tool)]));
    rows.push({
      name: String(tool.name),
      bytes: alone.bytes - empty.bytes,
      figure: figure(alone) - figure(empty),
      described: figure(alone) - figure(aloneBare),
    });
  }
  rows.sort((a, b) => b.figure - a.figure || (a.name < b.name ? -1 : 1));
  const unit = counted ? 'tokens' : 'bytes';
  const per = (value: number) => number(Math.round(value / Math.max(tools.length, 1)));
  const lines = [
    `${language} SDK of ${tools.length} tool${tools.length === 1 ? '' : 's'}: ` +
      (counted
        ? `${number(whole.tokens!)} ${SDK_ENCODING} tokens · ${number(whole.bytes)} bytes, ${per(whole.tokens!)} tokens per tool`
        : `${number(whole.bytes)} bytes, ${per(whole.bytes)} bytes per tool (tokens not counted: ${counter.missing})`),
    `  described (the tools' own descriptions): ${number(figure(whole) - figure(bare))} ${unit}; the types, signatures and names the SDK writes: ${number(figure(bare) - figure(empty))}`,
    `  the SDK with no tool (usage and ToolCallError): ${counted ? `${number(empty.tokens!)} tokens · ` : ''}${number(empty.bytes)} bytes`,
    `${(counted ? 'tokens' : '').padStart(9)}${'described'.padStart(11)}${'bytes'.padStart(10)}  tool (alone: its signature, descriptions and types)`,
  ];
  for (const row of rows)
    lines.push(
      `${(counted ? number(row.figure) : '').padStart(9)}${number(row.described).padStart(11)}${number(row.bytes).padStart(10)}  ${row.name}`,
    );
  return `${lines.join('\n')}\n`;
}
