import { describe, expect, it } from 'vitest';
import { parseProjectConfig } from '../project/config.js';
import { configRefusal } from '../project/test/config-refusal.js';
import { renderHtmlReport } from './html.js';
import { sdkBudgetFindings, sdkCost, sdkCostLines, sdkCostMarkdown, sdkDelta } from './sdk-cost.js';

const size = (tokens: number, committed?: number) => ({
  language: 'python',
  tokens,
  bytes: tokens * 4,
  ...(committed === undefined ? {} : { committed: { tokens: committed, bytes: committed * 4 } }),
});

describe('the SDK cost', () => {
  it('keeps one row per scenario and language and totals each language against the committed snapshots', () => {
    const cost = sdkCost([
      { scenario: 'orders', sdk: { ...size(1_300, 1_000), tools: 4 } },
      { scenario: 'orders', sdk: { ...size(1_300, 1_000), tools: 4 } },
      { scenario: 'refunds', sdk: { ...size(500, 500), tools: 1 } },
      // A pair whose tools are not known counts in the total, not in the tokens per tool.
      { scenario: 'new-one', sdk: size(100) },
      { scenario: 'orders', sdk: { ...size(900, 900), language: 'typescript' } },
      { scenario: 'failed' },
    ])!;
    expect(cost.rows.map((r) => `${r.language} ${r.scenario}`)).toEqual([
      'python new-one',
      'python orders',
      'python refunds',
      'typescript orders',
    ]);
    expect(cost.totals[0]).toMatchObject({ language: 'python', tokens: 1_900, committed: { tokens: 1_500 } });
    expect(sdkDelta(cost.totals[0]!, cost.totals[0]!.committed)).toBe('+400 tokens, +26.7%');
    expect(sdkDelta({ tokens: 1_240, bytes: 1 }, { tokens: 12_654, bytes: 2 })).toBe('-11,414 tokens, -90.2%');
    expect(sdkCostLines(cost)).toEqual([
      '',
      'SDK cost (o200k_base tokens, sent with every request):',
      '  python: 1,900 tokens · 7,600 bytes in 3 scenario(s), 5 tools, 360 per tool (+400 tokens, +26.7%)',
      '    new-one: 100 tokens · 400 bytes (new)',
      '    orders: 1,300 tokens · 5,200 bytes, 4 tools, 325 per tool (+300 tokens, +30.0%)',
      '  typescript: 900 tokens · 3,600 bytes in 1 scenario(s) (unchanged)',
    ]);
    expect(sdkCostMarkdown(cost)).toContain(
      '| **total** | python | **1,900** | 7,600 | 5 | 360 | +400 tokens, +26.7% |',
    );
    expect(sdkCostMarkdown(cost)).toContain('| orders | python | 1,300 | 5,200 | 4 | 325 | +300 tokens, +30.0% |');
    expect(sdkCostMarkdown(cost)).toContain('| new-one | python | 100 | 400 | | | new |');
    expect(sdkCost([{ scenario: 'x' }])).toBeUndefined();
  });

  it('fails a budget by how much, growth only against a committed snapshot', () => {
    const cost = sdkCost([
      { scenario: 'orders', sdk: size(1_300, 1_000) },
      { scenario: 'new-one', sdk: size(2_000) },
    ]);
    expect(
      sdkBudgetFindings(cost, { maxTokens: 1_500, maxGrowthTokens: 200, maxGrowthPercent: 10 }, undefined).map(
        (f) => `${f.check} ${f.severity}: ${f.message}`,
      ),
    ).toEqual([
      'sdk-budget error: the python SDK of new-one is 2,000 tokens, 500 over sdkBudget.maxTokens (1,500) in concord.config.yml',
      'sdk-budget error: the python SDK of orders grew by 300 tokens (1,000 → 1,300), 100 over sdkBudget.maxGrowthTokens (200) in concord.config.yml',
      'sdk-budget error: the python SDK of orders grew by 30.0% (1,000 → 1,300 tokens), 20.0 points over sdkBudget.maxGrowthPercent (10%) in concord.config.yml',
    ]);
    expect(
      sdkBudgetFindings(cost, { maxTokens: 2_000, maxGrowthTokens: 300, maxGrowthPercent: 30 }, undefined),
    ).toEqual([]);
    expect(sdkBudgetFindings(cost, undefined, undefined)).toEqual([]);
    expect(sdkBudgetFindings(cost, undefined, 'js-tiktoken is missing')).toEqual([]);
    expect(sdkBudgetFindings(undefined, { maxTokens: 1 }, 'js-tiktoken is missing')).toEqual([
      {
        check: 'sdk-budget',
        severity: 'error',
        message: 'sdkBudget in concord.config.yml is not checked: js-tiktoken is missing',
      },
    ]);
  });

  it('refuses a bad budget in concord.config.yml at its line and column', () => {
    const error = configRefusal;
    expect(parseProjectConfig('c.yml', 'sdkBudget:\n  maxTokens: 6000\n  maxGrowthPercent: 10\n')).toEqual({
      sdkBudget: { maxTokens: 6000, maxGrowthPercent: 10 },
    });
    expect(error('sdkBudget:\n  maxTokens: lots\n')).toMatch(
      /^2:14 concord\.config\.yml\.sdkBudget\.maxTokens must be a number/,
    );
    expect(error('sdkBudget:\n  maxGrowthPercent: -5\n')).toMatch(
      /^2:21 concord\.config\.yml\.sdkBudget\.maxGrowthPercent must be a number ≥ 0/,
    );
    expect(error('sdkBudget:\n  maxGrowth: 5\n')).toMatch(/^2:3 unknown key "maxGrowth"/);
  });
});

describe('the SDK cost in report.html', () => {
  it('is a table of the page, each name escaped as text', () => {
    const times = { assembly: 0, model: 0, runtime: 0, checks: 0 };
    const page = renderHtmlReport({
      runId: 'r1',
      matrix: [],
      pairs: [
        {
          scenario: 'a<b>&',
          runtime: 'python',
          status: 'pass',
          findings: [],
          verdicts: [],
          times,
          sdk: { language: 'python', tokens: 10, bytes: 40, committed: { tokens: 9, bytes: 30 } },
        },
      ],
    });
    expect(page).toContain('<section><h2>SDK cost</h2>');
    expect(page).toContain(
      '<tr><td>a&lt;b&gt;&amp;</td><td>python</td><td class="num">10</td><td class="num">40</td><td>+1 tokens, +11.1%</td></tr>',
    );
    expect(page).toContain('<tr><td><strong>total</strong></td><td>python</td>');
    expect(page).not.toContain('&lt;section&gt;');
  });
});
