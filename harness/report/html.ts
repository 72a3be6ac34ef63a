import { createHash } from 'node:crypto';
import type { Language } from '../../runtimes/seam/types.js';
import { COVERAGE_HINT, coverageSentences } from '../checks/tool-coverage.js';
import type { Finding } from '../checks/types.js';
import { LANGUAGE_PACKS, LANGUAGES } from '../languages/index.js';
import { isRuntimeName, runtimeLanguage } from '../runtime-names.js';
import { type ChangeGroup, groupHeading, runChangeGroups } from '../snapshot/change-groups.js';
import { SDK_FILE } from '../snapshot/transcript.js';
import { boundedWordDiff, type TextDiff } from '../text/diff.js';
import { elideLine } from '../text/short-line.js';
import { type Html, html, trusted } from './html-template.js';
import type { ReportInput, ReportPair } from './outcome.js';
import { isFailing as failing, type PairStatus, STATUS_MARK } from './outcome.js';
import { sdkCost, sdkDelta } from './sdk-cost.js';

/**
 * `.concord/report.html`: one self-contained page (no network, no external file) that a reviewer opens from
 * disk or as a CI artifact. Everything is readable without color (every status is also a word and a mark),
 * and every control is a button or a link, so the keyboard reaches all of it. Every value goes through the
 * `html` tag (escaped by construction), and the page's only style sheet and script are allowed by their
 * hashes: an injected element could run nothing.
 */

const STUB_MARK = {
  ok: '✓ compiles, imports',
  rejected: '✗ does not compile',
  'import-failed': '✗ fails on import',
  unavailable: '? could not run',
} as const;

const idOf = (pair: { scenario: string; runtime: string }) =>
  `pair-${String(pair.scenario)}-${String(pair.runtime)}`.replace(/[^\w-]/g, '_');
const mark = (status: string) => (Object.hasOwn(STATUS_MARK, status) ? STATUS_MARK[status as PairStatus] : '');

function matrix(input: ReportInput): Html {
  const scenarios = [...new Set(input.pairs.map((p) => p.scenario))];
  const runtimes = [...new Set(input.pairs.map((p) => p.runtime))];
  const head = html`<tr><th scope="col">scenario</th>${runtimes.map((r) => html`<th scope="col">${r}</th>`)}</tr>`;
  const rows = scenarios.map((scenario) => {
    const cells = runtimes.map((runtime) => {
      const pair = input.pairs.find((p) => p.scenario === scenario && p.runtime === runtime);
      if (!pair) return html`<td></td>`;
      return html`<td class="status ${pair.status}"><a href="#${idOf(pair)}" data-open="${idOf(pair)}">${mark(pair.status)} ${pair.status}</a></td>`;
    });
    return html`<tr><th scope="row">${scenario}</th>${cells}</tr>`;
  });
  return html`<table class="matrix"><thead>${head}</thead><tbody>${rows}</tbody></table>`;
}

function counts(pairs: readonly ReportPair[]): Html[] {
  const statuses = [...new Set(pairs.map((p) => p.status))];
  return statuses.map(
    (s) => html`<span class="count ${s}">${mark(s)} ${pairs.filter((p) => p.status === s).length} ${s}</span> `,
  );
}

/** A changed line pair with just the changed words marked (a rewrite, past the word edits worth marking, whole). */
function wordPair(before: string, after: string): Html[] {
  const parts = boundedWordDiff(before, after);
  if (parts === undefined)
    return [html`<span class="line del">-${before}</span>`, html`<span class="line ins">+${after}</span>`];
  const side = (keep: 'removed' | 'added') =>
    parts
      .filter((p) => !(keep === 'removed' ? p.added : p.removed))
      .map((p) =>
        (keep === 'removed' ? p.removed : p.added)
          ? keep === 'removed'
            ? html`<del>${p.value}</del>`
            : html`<ins>${p.value}</ins>`
          : html`${p.value}`,
      );
  return [
    html`<span class="line del">-${side('removed')}</span>`,
    html`<span class="line ins">+${side('added')}</span>`,
  ];
}

/** Lines of one diff a report shows; the snapshot files and the pending proposal hold the rest. */
const MAX_DIFF_LINES = 2_000;
/** Characters of one line a report shows whole. */
const MAX_REPORT_LINE = 2_000;
/** Characters of a new file's text a report shows. */
const MAX_REPORT_TEXT = 64 * 1024;

/** A value as a report shows it: whole, or its start and its size and hash, so a report stays a few megabytes. */
function boundedText(text: string): string {
  if (text.length <= MAX_REPORT_TEXT) return text;
  const bytes = Buffer.byteLength(text);
  const hash = createHash('sha256').update(text).digest('hex');
  return `${text.slice(0, MAX_REPORT_TEXT)}\n… [the rest is not shown: the whole value is ${bytes.toLocaleString('en-US')} bytes, sha256 ${hash}]`;
}

function diffBlock(diff: TextDiff): Html {
  const lines: Html[] = [
    html`<span class="line head">--- ${diff.labels.before}</span>`,
    html`<span class="line head">+++ ${diff.labels.after}</span>`,
  ];
  const shown = diff.hunks.reduce((n, hunk) => n + hunk.lines.length, 0);
  let budget = MAX_DIFF_LINES;
  for (const hunk of diff.hunks) {
    if (budget <= 0) break;
    lines.push(
      html`<span class="line hunk">@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@</span>`,
    );
    let removed: string[] = [];
    let added: string[] = [];
    const flush = () => {
      const paired = Math.min(removed.length, added.length);
      for (let i = 0; i < paired; i++) lines.push(...wordPair(removed[i]!, added[i]!));
      for (const line of removed.slice(paired)) lines.push(html`<span class="line del">-${line}</span>`);
      for (const line of added.slice(paired)) lines.push(html`<span class="line ins">+${line}</span>`);
      removed = [];
      added = [];
    };
    for (const whole of hunk.lines.slice(0, budget)) {
      const line = elideLine(whole, MAX_REPORT_LINE);
      if (line.startsWith('-')) removed.push(line.slice(1));
      else if (line.startsWith('+')) added.push(line.slice(1));
      else {
        flush();
        if (!line.startsWith('\\')) lines.push(html`<span class="line">${line}</span>`);
      }
    }
    budget -= hunk.lines.length;
    flush();
  }
  if (shown > MAX_DIFF_LINES)
    lines.push(
      html`<span class="line hunk">… ${(shown - MAX_DIFF_LINES).toLocaleString('en-US')} more line(s) of this diff: the snapshot files hold them</span>`,
    );
  return html`<pre class="diff">${lines}</pre>`;
}

function findingItem(f: Finding): Html {
  return html`<li><strong>${f.severity}</strong> <code>${f.check}</code>: <pre class="message">${f.message}</pre></li>`;
}

/** Each distinct change once, with the files that share it; pairs link here instead of repeating the diff. */
function changesSection(groups: readonly ChangeGroup[]): Html | string {
  if (groups.length === 0) return '';
  const files = groups.reduce((n, g) => n + g.paths.length, 0);
  const items = groups.map(
    (g) =>
      html`<section class="change" id="change-${g.number}"><h3>change ${g.number}: ${groupHeading(g)}</h3>${g.diff ? diffBlock(g.diff) : g.members[0]?.proposed !== undefined ? html`<pre>${boundedText(g.members[0].proposed)}</pre>` : ''}</section>`,
  );
  return html`<section><h2>Changes</h2><p>${groups.length} distinct change(s) in ${files} file(s); each is shown once.</p>${items}</section>`;
}

function pairSection(pair: ReportPair, groupOf: ReadonlyMap<string, ChangeGroup>): Html {
  const times = pair.times
    ? Object.entries(pair.times)
        .map(([phase, ms]) => `${phase} ${Math.round(ms)} ms`)
        .join(' · ')
    : '';
  const changed = (pair.verdicts ?? []).filter((v) => v.status !== 'same');
  const body = [
    times ? html`<p class="times">${times}</p>` : '',
    pair.reason ? html`<pre class="message">${pair.reason}</pre>` : '',
    pair.findings.length > 0 ? html`<ul class="findings">${pair.findings.map(findingItem)}</ul>` : '',
    ...changed.map((v) => {
      const group = groupOf.get(v.path);
      if (group)
        return html`<h4>${v.status}: ${v.path} — <a href="#change-${group.number}">change ${group.number}</a>${group.paths.length > 1 ? html` (shared by ${group.paths.length} files)` : ''}</h4>`;
      return html`<h4>${v.status}: ${v.path}</h4>${v.diff ? diffBlock(v.diff) : v.reason ? html`<pre class="message">${v.reason}</pre>` : ''}`;
    }),
    !pair.reason && pair.findings.length === 0 && changed.length === 0
      ? html`<p>Every snapshot file agrees; no check found anything.</p>`
      : '',
  ];
  return html`<details class="pair ${pair.status}" id="${idOf(pair)}" data-runtime="${pair.runtime}" data-failing="${String(failing(pair.status))}"><summary><span class="status ${pair.status}">${mark(pair.status)} ${pair.status}</span> ${pair.scenario} × ${pair.runtime}</summary>${body}</details>`;
}

/** What the SDK costs every request: one row per scenario and language, then each language's total. */
function sdkCostSection(input: ReportInput): Html | string {
  const cost = sdkCost(input.pairs);
  if (cost === undefined) return '';
  const n = (value: number) => value.toLocaleString('en-US');
  const row = (scenario: Html | string, r: { language: string; tokens: number; bytes: number }, delta: string) =>
    html`<tr><td>${scenario}</td><td>${r.language}</td><td class="num">${n(r.tokens)}</td><td class="num">${n(r.bytes)}</td><td>${delta}</td></tr>`;
  const rows = [
    ...cost.rows.map((r) => row(r.scenario, r, sdkDelta(r, r.committed))),
    ...cost.totals.map((t) => row(html`<strong>total</strong>`, t, sdkDelta(t, t.committed))),
  ];
  return html`<section><h2>SDK cost</h2><p>The <code>tools:sdk</code> block every request carries, in <code>${cost.encoding}</code> tokens (js-tiktoken) and UTF-8 bytes, against the committed snapshots.</p><table class="sdk-cost"><tr><th>scenario</th><th>language</th><th>tokens</th><th>bytes</th><th>change</th></tr>${rows}</table></section>`;
}

/** The SDK the model read for one scenario, TypeScript and Python side by side. */
function sdkSection(input: ReportInput): Html | string {
  const sdkOf = (pair: ReportPair | undefined, file: string) =>
    pair?.verdicts?.find((v) => v.path.endsWith(`/${file}`))?.proposed;
  for (const scenario of [...new Set(input.pairs.map((p) => p.scenario))]) {
    const ofLanguage = (language: Language) => {
      const pair = input.pairs.find(
        (p) =>
          p.scenario === scenario &&
          isRuntimeName(p.runtime) &&
          runtimeLanguage(p.runtime) === language &&
          sdkOf(p, SDK_FILE[language]) !== undefined,
      );
      return sdkOf(pair, SDK_FILE[language]);
    };
    const sdks = LANGUAGES.flatMap((language) => {
      const sdk = ofLanguage(language);
      return sdk === undefined ? [] : [{ pack: LANGUAGE_PACKS[language], sdk }];
    });
    if (sdks.length < 2) continue;
    const figures = sdks.map(
      ({ pack, sdk }) =>
        html`<figure><figcaption>${pack.name} (${pack.sdkFile})</figcaption><pre>${boundedText(sdk)}</pre></figure>`,
    );
    return html`<section><h2>The SDK the model read: ${scenario}</h2><div class="side-by-side">${figures}</div></section>`;
  }
  return '';
}

function stubSection(input: ReportInput): Html {
  if (input.matrix.length === 0)
    return html`<section><h2>Stub validity</h2><p>No Python <code>tools:sdk</code> block was compiled in this run.</p></section>`;
  const labels = [...new Set(input.matrix.map((c) => c.interpreter))];
  const unicode = (label: string) =>
    input.interpreters?.find((i) => i.label === label)?.unicode ??
    input.matrix.find((c) => c.interpreter === label)?.unicode ??
    '?';
  const head = html`<tr><th scope="col">scenario × runtime</th>${labels.map((l) => html`<th scope="col">${l}<br><small>Unicode ${unicode(l)}</small></th>`)}</tr>`;
  const pairs = [...new Map(input.matrix.map((c) => [`${c.scenario} × ${c.runtime}`, c])).keys()];
  const rows = pairs.map((pair) => {
    const cells = labels.map((label) => {
      const c = input.matrix.find((x) => `${x.scenario} × ${x.runtime}` === pair && x.interpreter === label);
      if (!c) return html`<td></td>`;
      const text = `${Object.hasOwn(STUB_MARK, c.outcome) ? STUB_MARK[c.outcome] : String(c.outcome)}${c.belowFloor ? ' (below the floor)' : ''}`;
      return html`<td class="stub ${c.outcome}" title="${c.error ?? text}">${text}</td>`;
    });
    return html`<tr><th scope="row">${pair}</th>${cells}</tr>`;
  });
  const errors = input.matrix
    .filter((c) => c.error !== undefined)
    .map(
      (c) =>
        html`<li>${`${c.scenario} × ${c.runtime} on ${c.interpreter}`}: <pre class="message">${c.error}</pre></li>`,
    );
  return html`<section><h2>Stub validity</h2><details><summary>${input.matrix.filter((c) => c.outcome === 'ok').length} of ${input.matrix.length} compile and import</summary><table class="matrix">${head}${rows}</table>${errors.length ? html`<ul>${errors}</ul>` : ''}</details></section>`;
}

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:78rem;padding:0 1rem;color:#1b1f24;background:#fff}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}h4{margin:.8rem 0 .3rem;font-size:.95rem}
table.matrix{border-collapse:collapse;margin:.5rem 0;display:block;max-width:100%;overflow-x:auto}
p,li,summary,td,th,figcaption,code{overflow-wrap:anywhere}th,td{border:1px solid #c8ccd1;padding:.3rem .6rem;text-align:left}
.status.pass,.count.pass,.stub.ok{background:#e6f4ea}.status.updated,.count.updated{background:#e3f0fb}
.status.mismatch,.status.failed,.status.unstable,.count.mismatch,.count.failed,.count.unstable,.stub.rejected,.stub.import-failed{background:#fde7e9}
.status.skipped,.count.skipped,.stub.unavailable{background:#fff5d6}.count{padding:.1rem .4rem;border-radius:.3rem;margin-right:.3rem}
details.pair{border:1px solid #c8ccd1;border-radius:.4rem;margin:.4rem 0;padding:.3rem .6rem}details.pair>summary{cursor:pointer}
pre{overflow:auto;background:#f6f8fa;padding:.5rem;border-radius:.3rem;font-size:13px}pre.message{white-space:pre-wrap}
.diff .line{display:block}.diff .del{background:#fde7e9}.diff .ins{background:#e6f4ea}.diff .hunk,.diff .head{color:#57606a}
del{background:#f5a3ab;text-decoration:line-through}ins{background:#95dca6;text-decoration:underline}
.side-by-side{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem}figure{margin:0}figcaption{font-weight:600}
.filters{display:flex;gap:.5rem;flex-wrap:wrap;margin:.5rem 0}.filters button[aria-pressed=true]{font-weight:700;outline:2px solid #0969da}
.hidden{display:none}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}pre{background:#161b22}th,td,details.pair{border-color:#30363d}
.status.pass,.count.pass,.stub.ok,.diff .ins{background:#12361f}.status.mismatch,.status.failed,.status.unstable,.count.mismatch,.count.failed,.count.unstable,.stub.rejected,.diff .del{background:#4a1419}
.status.skipped,.count.skipped,.stub.unavailable{background:#3b2e05}.status.updated,.count.updated{background:#0c2d4a}del{background:#8e1519}ins{background:#196c2e}}
`;

// Filters and links: plain DOM, no network. A link into the matrix opens its pair before the browser scrolls.
const SCRIPT = `
const pairs=[...document.querySelectorAll('details.pair')];let failuresOnly=false;let runtime='';
function apply(){for(const p of pairs){p.classList.toggle('hidden',(failuresOnly&&p.dataset.failing!=='true')||(runtime!==''&&p.dataset.runtime!==runtime));}}
for(const b of document.querySelectorAll('button[data-filter]')){b.addEventListener('click',()=>{if(b.dataset.filter==='failures'){failuresOnly=!failuresOnly;b.setAttribute('aria-pressed',String(failuresOnly));}else{runtime=b.dataset.runtime===runtime?'':b.dataset.runtime;for(const o of document.querySelectorAll('button[data-runtime]'))o.setAttribute('aria-pressed',String(o.dataset.runtime===runtime));}apply();});}
for(const a of document.querySelectorAll('a[data-open]')){a.addEventListener('click',()=>{const d=document.getElementById(a.dataset.open);if(d){d.classList.remove('hidden');d.open=true;}});}
`;

/** A CSP source allowing exactly this inline text. */
const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const CSP = `default-src 'none'; style-src ${hashOf(STYLE)}; script-src ${hashOf(SCRIPT)}; base-uri 'none'; form-action 'none'`;

/** The HTML of `.concord/report.html`. */
export function renderHtmlReport(input: ReportInput): string {
  const groups = runChangeGroups(input.pairs);
  const groupOf = new Map(groups.flatMap((g) => g.paths.map((path) => [path, g] as const)));
  const runtimes = [...new Set(input.pairs.map((p) => p.runtime))];
  const run =
    input.runFindings && input.runFindings.length > 0
      ? html`<section><h2>The whole run</h2><ul class="findings">${input.runFindings.map(findingItem)}</ul></section>`
      : '';
  const uncalled = coverageSentences(input.coverage);
  const coverage =
    uncalled.length > 0
      ? html`<section><h2>Tool coverage</h2><ul class="findings">${uncalled.map((s) => html`<li><strong>${input.coverage!.level === 'error' ? 'error' : 'warning'}</strong> ${s}</li>`)}</ul><p>${COVERAGE_HINT}</p></section>`
      : '';
  const interpreters = (input.interpreters ?? []).map(
    (i) => html`<li>${i.label}: CPython ${i.version}, Unicode ${i.unicode} (${i.detail})</li>`,
  );
  const absent = (input.absent ?? []).map((a) => html`<li>not available: ${a}</li>`);
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>concord gate report ${input.runId}</title><style>${trusted(STYLE)}</style></head>
<body><main>
<h1>concord gate report</h1>
<p>Run <code>${input.runId}</code>${input.floor ? html` · floor CPython ${input.floor}` : ''} · ${input.pairs.length} scenario × runtime pair(s): ${counts(input.pairs)}</p>
<section><h2>Scenarios × runtimes</h2>${matrix(input)}</section>
${run}
${coverage}
<section><h2>Pairs</h2>
<div class="filters" role="group" aria-label="Filters"><button type="button" data-filter="failures" aria-pressed="false">Failures only</button>${runtimes.map((r) => html`<button type="button" data-filter="runtime" data-runtime="${r}" aria-pressed="false">${r} only</button>`)}</div>
${input.pairs.map((p) => html`${pairSection(p, groupOf)}\n`)}</section>
${changesSection(groups)}
${sdkCostSection(input)}
${sdkSection(input)}
${stubSection(input)}
${interpreters.length || absent.length ? html`<section><h2>Interpreters</h2><ul>${interpreters}${absent}</ul></section>` : ''}
</main><script>${trusted(SCRIPT)}</script></body></html>
`.text;
}
