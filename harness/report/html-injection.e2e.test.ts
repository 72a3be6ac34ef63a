import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sourceAsset } from '../../runtimes/seam/package-root.js';

const scratch: string[] = [];
afterAll(() => Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true }))));

/** Markup that would run script as an element, or break out of an attribute into event handlers. */
const ELEMENT = '<img src=x onerror=alert(1)><script>alert(2)</script>';
const ATTRIBUTE = 'x" onmouseover="alert(3)" data-x="';

/**
 * A results file as a shard writes it, valid in every field merge checks (the schema refuses markup where a
 * number or one of a few words belongs), with markup in every free-text field a report shows.
 */
function hostileResults(): unknown {
  const hunk = { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [`-${ELEMENT}`, `+${ATTRIBUTE}`, ' same'] };
  const scenario = `evil${ELEMENT}${ATTRIBUTE}`;
  return {
    concordResults: 1,
    commit: null,
    configuration: { concordVersion: '0.1.0', floor: '3.9', update: 'none', ci: true, scenarios: null, runtimes: null },
    shard: null,
    runId: 'r1',
    pairs: [
      {
        scenario,
        runtime: 'python',
        status: 'mismatch',
        times: { assembly: 1, model: 1, runtime: 1, checks: 1 },
        verdicts: [
          {
            path: `${scenario}/python/transcript.yaml`,
            status: 'changed',
            diff: { labels: { before: ELEMENT, after: ATTRIBUTE }, jsonSplit: false, hunks: [hunk] },
          },
        ],
        findings: [{ check: ELEMENT, severity: 'error', message: `${ELEMENT}${ATTRIBUTE}` }],
        reason: ELEMENT,
        tools: { registered: [ELEMENT, ATTRIBUTE], called: [ELEMENT] },
      },
    ],
    obsolete: [],
    runFindings: [{ check: ATTRIBUTE, severity: 'note', message: ELEMENT }],
    matrix: [
      {
        scenario,
        runtime: 'python',
        interpreter: ATTRIBUTE,
        version: '3.9',
        python: ELEMENT,
        unicode: ELEMENT,
        belowFloor: false,
        outcome: 'rejected',
        error: ELEMENT,
      },
    ],
    interpreters: [{ label: ELEMENT, version: ATTRIBUTE, unicode: ELEMENT, detail: ELEMENT }],
    absent: [ELEMENT],
    proposals: [],
  };
}

/** The elements and attributes of `html`. Escaped text holds no `<`, so every `<` starts markup of the page itself. */
function markup(html: string): {
  elements: Set<string>;
  attributes: Set<string>;
  scripts: string[];
  styles: string[];
  csp: string;
} {
  const elements = new Set<string>();
  const attributes = new Set<string>();
  for (const tag of html.matchAll(/<([a-zA-Z][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)) {
    elements.add(tag[1]!.toLowerCase());
    for (const attribute of tag[2]!.matchAll(/([^\s=]+)(?:=(?:"[^"]*"|'[^']*'|[^\s>]+))?/g))
      attributes.add(attribute[1]!.toLowerCase());
  }
  const between = (open: string, close: string) =>
    [...html.matchAll(new RegExp(`<${open}>([\\s\\S]*?)</${close}>`, 'g'))].map((m) => m[1]!);
  return {
    elements,
    attributes,
    scripts: between('script', 'script'),
    styles: between('style', 'style'),
    csp: (/http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '').replace(/&#39;/g, "'"),
  };
}

const ELEMENTS = [
  'html',
  'head',
  'meta',
  'title',
  'style',
  'body',
  'main',
  'h1',
  'h2',
  'h3',
  'h4',
  'p',
  'code',
  'section',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'a',
  'span',
  'div',
  'button',
  'details',
  'summary',
  'pre',
  'ul',
  'li',
  'strong',
  'del',
  'ins',
  'br',
  'small',
  'figure',
  'figcaption',
  'script',
  '!doctype',
];
const ATTRIBUTES = [
  'lang',
  'charset',
  'name',
  'content',
  'http-equiv',
  'class',
  'scope',
  'href',
  'data-open',
  'id',
  'data-runtime',
  'data-failing',
  'data-filter',
  'type',
  'role',
  'aria-label',
  'aria-pressed',
  'title',
  'html',
];
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('report.html from a hostile results file', () => {
  it("concord merge writes inert HTML: no injected element or attribute, and a CSP that allows only the page's own script and style", {
    timeout: 120_000,
  }, async () => {
    const root = await mkdtemp(join(tmpdir(), 'concord-html-injection-'));
    scratch.push(root);
    await writeFile(join(root, 'concord.config.yml'), 'floor: "3.9"\n');
    await writeFile(join(root, 'results.json'), JSON.stringify(hostileResults()));
    const merged = spawnSync(
      process.execPath,
      [sourceAsset('bin/concord.mjs'), 'merge', '--root', root, join(root, 'results.json')],
      { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' } },
    );
    expect(merged.stderr).not.toMatch(/\$\./);
    const html = await readFile(join(root, '.concord', 'report.html'), 'utf8').catch(
      () => `(no report: ${merged.stderr})`,
    );
    const { elements, attributes, scripts, styles, csp } = markup(html);
    expect([...elements].filter((e) => !ELEMENTS.includes(e))).toEqual([]);
    expect([...attributes].filter((a) => !ATTRIBUTES.includes(a))).toEqual([]);
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain(`script-src ${sha256(scripts[0]!)}`);
    expect(csp).toContain(`style-src ${sha256(styles[0]!)}`);
    expect(csp).toMatch(/^default-src 'none';/);
  });
});
