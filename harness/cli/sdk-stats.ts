import type { ToolDefinition } from '../../codemode/index.js';
import { SDK_ENCODING, TokenCounter } from '../cache/token-counter.js';

const number = (value: number) => value.toLocaleString('en-US');

/**
 * What an SDK costs, in all and for each tool, costliest first: a tool's figure is the SDK of that tool alone less
 * the SDK of no tool (its signature, its description and every type it names, shared ones included), so a team
 * sees which tool to trim. Counted in SDK_ENCODING with js-tiktoken; without it, bytes only and a line saying so.
 */
export async function sdkStats(
  language: string,
  tools: readonly ToolDefinition[],
  sdkOf: (tools: readonly ToolDefinition[]) => string,
): Promise<string> {
  const counter = new TokenCounter();
  const measure = async (text: string) => ({ bytes: Buffer.byteLength(text), tokens: await counter.count(text) });
  const whole = await measure(sdkOf(tools));
  const empty = await measure(sdkOf([]));
  const rows: { name: string; bytes: number; tokens: number | undefined }[] = [];
  for (const tool of tools) {
    const alone = await measure(sdkOf([tool]));
    rows.push({
      name: String(tool.name),
      bytes: alone.bytes - empty.bytes,
      tokens: alone.tokens === undefined || empty.tokens === undefined ? undefined : alone.tokens - empty.tokens,
    });
  }
  const counted = whole.tokens !== undefined;
  rows.sort((a, b) => (counted ? b.tokens! - a.tokens! : b.bytes - a.bytes) || (a.name < b.name ? -1 : 1));
  const per = (value: number) => number(Math.round(value / Math.max(tools.length, 1)));
  const lines = [
    `${language} SDK of ${tools.length} tool${tools.length === 1 ? '' : 's'}: ` +
      (counted
        ? `${number(whole.tokens!)} ${SDK_ENCODING} tokens · ${number(whole.bytes)} bytes, ${per(whole.tokens!)} tokens per tool`
        : `${number(whole.bytes)} bytes, ${per(whole.bytes)} bytes per tool (tokens not counted: ${counter.missing})`),
    `  the SDK with no tool (usage and ToolCallError): ${counted ? `${number(empty.tokens!)} tokens · ` : ''}${number(empty.bytes)} bytes`,
    `${(counted ? 'tokens' : '').padStart(9)}${'bytes'.padStart(10)}  tool (alone: its signature, description and types)`,
  ];
  for (const row of rows)
    lines.push(
      `${(row.tokens === undefined ? '' : number(row.tokens)).padStart(9)}${number(row.bytes).padStart(10)}  ${row.name}`,
    );
  return `${lines.join('\n')}\n`;
}
