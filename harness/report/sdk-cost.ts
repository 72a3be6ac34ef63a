import { SDK_ENCODING, type SdkMeasure, type SdkSize } from '../cache/token-counter.js';
import type { Finding } from '../checks/types.js';
import type { SdkBudget } from '../project/config.js';

/** One scenario's SDK in one language (the runtimes of a language render one SDK; the first pair stands for them). */
export interface SdkCostRow extends SdkSize {
  scenario: string;
}

export interface SdkCostTotal extends SdkMeasure {
  language: string;
  /** The tools the rows declare, over the rows that say (a tool in two scenarios counts twice). */
  tools: number;
  /** The tokens of those rows alone, so that tokens per tool divides like by like. */
  toolTokens: number;
  /** The committed snapshots of the same rows (a new scenario counts as 0). */
  committed: SdkMeasure;
}

export interface SdkCost {
  encoding: string;
  rows: SdkCostRow[];
  totals: SdkCostTotal[];
}

/** Per scenario and language, and in total per language; undefined when no pair measured an SDK. */
export function sdkCost(pairs: readonly { scenario: string; sdk?: SdkSize }[]): SdkCost | undefined {
  const rows = new Map<string, SdkCostRow>();
  for (const pair of pairs) {
    if (pair.sdk === undefined) continue;
    const key = `${pair.scenario}\u0000${pair.sdk.language}`;
    if (!rows.has(key)) rows.set(key, { scenario: pair.scenario, ...pair.sdk });
  }
  if (rows.size === 0) return undefined;
  const languages = [...new Set([...rows.values()].map((row) => row.language))].sort();
  const totals = languages.map((language) => {
    const total: SdkCostTotal = {
      language,
      bytes: 0,
      tokens: 0,
      tools: 0,
      toolTokens: 0,
      committed: { bytes: 0, tokens: 0 },
    };
    for (const row of rows.values()) {
      if (row.language !== language) continue;
      total.bytes += row.bytes;
      total.tokens += row.tokens;
      if (row.tools !== undefined && row.tools > 0) {
        total.tools += row.tools;
        total.toolTokens += row.tokens;
      }
      total.committed.bytes += row.committed?.bytes ?? 0;
      total.committed.tokens += row.committed?.tokens ?? 0;
    }
    return total;
  });
  const sorted = [...rows.values()].sort((a, b) =>
    a.language < b.language
      ? -1
      : a.language > b.language
        ? 1
        : a.scenario < b.scenario
          ? -1
          : a.scenario > b.scenario
            ? 1
            : 0,
  );
  return { encoding: SDK_ENCODING, rows: sorted, totals };
}

const number = (value: number) => value.toLocaleString('en-US');

/** `+1,240 tokens, +9.8%` against the committed size; `unchanged`; `new` when nothing was committed. */
export function sdkDelta(now: SdkMeasure, committed: SdkMeasure | undefined): string {
  if (committed === undefined || committed.tokens === 0)
    return committed === undefined || now.tokens > 0 ? 'new' : 'unchanged';
  const tokens = now.tokens - committed.tokens;
  const bytes = now.bytes - committed.bytes;
  if (tokens === 0 && bytes === 0) return 'unchanged';
  const sign = (value: number) => (value > 0 ? '+' : value < 0 ? '-' : '±');
  const percent = (tokens / committed.tokens) * 100;
  return `${sign(tokens)}${number(Math.abs(tokens))} tokens, ${sign(tokens)}${Math.abs(percent).toFixed(1)}%`;
}

const size = (m: SdkMeasure) => `${number(m.tokens)} tokens · ${number(m.bytes)} bytes`;

/** `, 12 tools, 230 per tool`, or nothing when the tools are not known. */
function perTool(tools: number | undefined, tokens: number): string {
  if (tools === undefined || tools === 0) return '';
  return `, ${number(tools)} tool${tools === 1 ? '' : 's'}, ${number(Math.round(tokens / tools))} per tool`;
}

/**
 * The terminal's lines: each language's total with its change, and each scenario whose SDK changed; the
 * reports list every scenario.
 */
export function sdkCostLines(cost: SdkCost): string[] {
  const lines = ['', `SDK cost (${cost.encoding} tokens, sent with every request):`];
  for (const total of cost.totals) {
    lines.push(
      `  ${total.language}: ${size(total)} in ${cost.rows.filter((r) => r.language === total.language).length} scenario(s)${perTool(total.tools, total.toolTokens)} (${sdkDelta(total, total.committed)})`,
    );
    for (const row of cost.rows) {
      if (row.language !== total.language) continue;
      const delta = sdkDelta(row, row.committed);
      if (delta !== 'unchanged')
        lines.push(`    ${row.scenario}: ${size(row)}${perTool(row.tools, row.tokens)} (${delta})`);
    }
  }
  return lines;
}

/** The Markdown section for `report.md` and the step summary: one row per scenario and language, then totals. */
export function sdkCostMarkdown(cost: SdkCost | undefined, heading = '## SDK cost'): string[] {
  if (cost === undefined) return [];
  const lines = [
    heading,
    '',
    `The \`tools:sdk\` block every request carries, in \`${cost.encoding}\` tokens (js-tiktoken) and UTF-8 bytes, against the committed snapshots.`,
    '',
    '| scenario | language | tokens | bytes | tools | per tool | change |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
  ];
  const tools = (count: number | undefined, tokens: number) =>
    count === undefined || count === 0 ? '| | |' : `| ${number(count)} | ${number(Math.round(tokens / count))} |`;
  for (const row of cost.rows)
    lines.push(
      `| ${row.scenario} | ${row.language} | ${number(row.tokens)} | ${number(row.bytes)} ${tools(row.tools, row.tokens)} ${sdkDelta(row, row.committed)} |`,
    );
  for (const total of cost.totals)
    lines.push(
      `| **total** | ${total.language} | **${number(total.tokens)}** | ${number(total.bytes)} ${tools(total.tools, total.toolTokens)} ${sdkDelta(total, total.committed)} |`,
    );
  lines.push('');
  return lines;
}

/**
 * Errors for every scenario and language whose SDK passes `budget` (`sdkBudget` of `concord.config.yml`),
 * each saying by how much; one error when the SDK could not be counted (`missing` says why). Growth is measured against
 * the committed snapshot; a new scenario has none.
 */
export function sdkBudgetFindings(
  cost: SdkCost | undefined,
  budget: SdkBudget | undefined,
  missing: string | undefined,
): Finding[] {
  if (budget === undefined) return [];
  if (missing !== undefined)
    return [
      { check: 'sdk-budget', severity: 'error', message: `sdkBudget in concord.config.yml is not checked: ${missing}` },
    ];
  if (cost === undefined) return [];
  const findings: Finding[] = [];
  const error = (message: string) => findings.push({ check: 'sdk-budget', severity: 'error', message });
  for (const row of cost.rows) {
    const what = `the ${row.language} SDK of ${row.scenario}`;
    if (budget.maxTokens !== undefined && row.tokens > budget.maxTokens) {
      error(
        `${what} is ${number(row.tokens)} tokens, ${number(row.tokens - budget.maxTokens)} over sdkBudget.maxTokens (${number(budget.maxTokens)}) in concord.config.yml`,
      );
    }
    if (row.committed === undefined || row.committed.tokens === 0) continue;
    const growth = row.tokens - row.committed.tokens;
    if (budget.maxGrowthTokens !== undefined && growth > budget.maxGrowthTokens) {
      error(
        `${what} grew by ${number(growth)} tokens (${number(row.committed.tokens)} → ${number(row.tokens)}), ${number(growth - budget.maxGrowthTokens)} over sdkBudget.maxGrowthTokens (${number(budget.maxGrowthTokens)}) in concord.config.yml`,
      );
    }
    const percent = (growth / row.committed.tokens) * 100;
    if (budget.maxGrowthPercent !== undefined && percent > budget.maxGrowthPercent) {
      error(
        `${what} grew by ${percent.toFixed(1)}% (${number(row.committed.tokens)} → ${number(row.tokens)} tokens), ${(percent - budget.maxGrowthPercent).toFixed(1)} points over sdkBudget.maxGrowthPercent (${budget.maxGrowthPercent}%) in concord.config.yml`,
      );
    }
  }
  return findings;
}
