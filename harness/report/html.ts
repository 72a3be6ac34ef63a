import { diffWordsWithSpace } from 'diff';
import type { Finding } from '../checks/types.js';
import { isFailing as failing, STATUS_MARK, type PairStatus } from '../gate/report.js';
import type { TextDiff } from '../text/diff.js';
import { groupHeading, runChangeGroups, type ChangeGroup } from '../snapshot/change-groups.js';
import type { ReportInput, ReportPair } from './markdown.js';
import { sdkCost, sdkDelta } from './sdk-cost.js';

/**
 * `.concord/report.html`: one self-contained page (no network, no external file) that a reviewer opens from
 * disk or as a CI artifact. Everything is readable without color (every status is also a word and a mark),
 * and every control is a button or a link, so the keyboard reaches all of it.
 */

const STUB_MARK = { ok: '✓ compiles, imports', rejected: '✗ does not compile', 'import-failed': '✗ fails on import', unavailable: '? could not run' } as const;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const idOf = (pair: { scenario: string; runtime: string }) => `pair-${pair.scenario}-${pair.runtime}`.replace(/[^\w-]/g, '_');

function matrix(input: ReportInput): string {
  const scenarios = [...new Set(input.pairs.map((p) => p.scenario))];
  const runtimes = [...new Set(input.pairs.map((p) => p.runtime))];
  const head = `<tr><th scope="col">scenario</th>${runtimes.map((r) => `<th scope="col">${escape(r)}</th>`).join('')}</tr>`;
  const rows = scenarios.map((scenario) => {
    const cells = runtimes.map((runtime) => {
      const pair = input.pairs.find((p) => p.scenario === scenario && p.runtime === runtime);
      if (!pair) return '<td></td>';
      return `<td class="status ${escape(pair.status)}"><a href="#${idOf(pair)}" data-open="${idOf(pair)}">${STATUS_MARK[pair.status as PairStatus] ?? ''} ${escape(pair.status)}</a></td>`;
    });
    return `<tr><th scope="row">${escape(scenario)}</th>${cells.join('')}</tr>`;
  });
  return `<table class="matrix"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
}

function counts(pairs: readonly ReportPair[]): string {
  const statuses = [...new Set(pairs.map((p) => p.status))];
  return statuses.map((s) => `<span class="count ${escape(s)}">${STATUS_MARK[s as PairStatus] ?? ''} ${pairs.filter((p) => p.status === s).length} ${escape(s)}</span>`).join(' ');
}

/** A changed line pair with just the changed words marked. */
function wordPair(before: string, after: string): string[] {
  const parts = diffWordsWithSpace(before, after);
  const side = (keep: 'removed' | 'added', tag: string) =>
    parts
      .filter((p) => !(keep === 'removed' ? p.added : p.removed))
      .map((p) => ((keep === 'removed' ? p.removed : p.added) ? `<${tag}>${escape(p.value)}</${tag}>` : escape(p.value)))
      .join('');
  return [`<span class="line del">-${side('removed', 'del')}</span>`, `<span class="line ins">+${side('added', 'ins')}</span>`];
}

function diffBlock(diff: TextDiff): string {
  const lines: string[] = [`<span class="line head">--- ${escape(diff.labels.before)}</span>`, `<span class="line head">+++ ${escape(diff.labels.after)}</span>`];
  for (const hunk of diff.hunks) {
    lines.push(`<span class="line hunk">@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@</span>`);
    let removed: string[] = [];
    let added: string[] = [];
    const flush = () => {
      const paired = Math.min(removed.length, added.length);
      for (let i = 0; i < paired; i++) lines.push(...wordPair(removed[i]!, added[i]!));
      for (const line of removed.slice(paired)) lines.push(`<span class="line del">-${escape(line)}</span>`);
      for (const line of added.slice(paired)) lines.push(`<span class="line ins">+${escape(line)}</span>`);
      removed = [];
      added = [];
    };
    for (const line of hunk.lines) {
      if (line.startsWith('-')) removed.push(line.slice(1));
      else if (line.startsWith('+')) added.push(line.slice(1));
      else {
        flush();
        if (!line.startsWith('\\')) lines.push(`<span class="line">${escape(line)}</span>`);
      }
    }
    flush();
  }
  return `<pre class="diff">${lines.join('')}</pre>`;
}

function findingItem(f: Finding): string {
  return `<li><strong>${escape(f.severity)}</strong> <code>${escape(f.check)}</code>: <pre class="message">${escape(f.message)}</pre></li>`;
}

/** Each distinct change once, with the files that share it; pairs link here instead of repeating the diff. */
function changesSection(groups: readonly ChangeGroup[]): string {
  if (groups.length === 0) return '';
  const files = groups.reduce((n, g) => n + g.paths.length, 0);
  const items = groups.map(
    (g) => `<section class="change" id="change-${g.number}"><h3>change ${g.number}: ${escape(groupHeading(g))}</h3>${g.diff ? diffBlock(g.diff) : g.members[0]?.proposed !== undefined ? `<pre>${escape(g.members[0].proposed)}</pre>` : ''}</section>`,
  );
  return `<section><h2>Changes</h2><p>${groups.length} distinct change(s) in ${files} file(s); each is shown once.</p>${items.join('')}</section>`;
}

function pairSection(pair: ReportPair, groupOf: ReadonlyMap<string, ChangeGroup>): string {
  const times = pair.times ? Object.entries(pair.times).map(([phase, ms]) => `${phase} ${Math.round(ms)} ms`).join(' · ') : '';
  const changed = (pair.verdicts ?? []).filter((v) => v.status !== 'same');
  const body = [
    times ? `<p class="times">${escape(times)}</p>` : '',
    pair.reason ? `<pre class="message">${escape(pair.reason)}</pre>` : '',
    pair.findings.length > 0 ? `<ul class="findings">${pair.findings.map(findingItem).join('')}</ul>` : '',
    ...changed.map((v) => {
      const group = groupOf.get(v.path);
      if (group) return `<h4>${escape(v.status)}: ${escape(v.path)} — <a href="#change-${group.number}">change ${group.number}</a>${group.paths.length > 1 ? ` (shared by ${group.paths.length} files)` : ''}</h4>`;
      return `<h4>${escape(v.status)}: ${escape(v.path)}</h4>${v.diff ? diffBlock(v.diff) : v.reason ? `<pre class="message">${escape(v.reason)}</pre>` : ''}`;
    }),
    !pair.reason && pair.findings.length === 0 && changed.length === 0 ? '<p>Every snapshot file agrees; no check found anything.</p>' : '',
  ].join('');
  return (
    `<details class="pair ${escape(pair.status)}" id="${idOf(pair)}" data-runtime="${escape(pair.runtime)}" data-failing="${failing(pair.status)}">` +
    `<summary><span class="status ${escape(pair.status)}">${STATUS_MARK[pair.status as PairStatus] ?? ''} ${escape(pair.status)}</span> ${escape(pair.scenario)} × ${escape(pair.runtime)}</summary>${body}</details>`
  );
}

/** What the SDK costs every request: one row per scenario and language, then each language's total. */
function sdkCostSection(input: ReportInput): string {
  const cost = sdkCost(input.pairs);
  if (cost === undefined) return '';
  const n = (value: number) => value.toLocaleString('en-US');
  const row = (scenario: string, r: { language: string; tokens: number; bytes: number }, delta: string) =>
    `<tr><td>${scenario}</td><td>${escape(r.language)}</td><td class="num">${n(r.tokens)}</td><td class="num">${n(r.bytes)}</td><td>${escape(delta)}</td></tr>`;
  const rows = [
    ...cost.rows.map((r) => row(escape(r.scenario), r, sdkDelta(r, r.committed))),
    ...cost.totals.map((t) => row('<strong>total</strong>', t, sdkDelta(t, t.committed))),
  ];
  return (
    `<section><h2>SDK cost</h2><p>The <code>tools:sdk</code> block every request carries, in <code>${escape(cost.encoding)}</code> tokens (js-tiktoken) and UTF-8 bytes, against the committed snapshots.</p>` +
    `<table class="sdk-cost"><tr><th>scenario</th><th>language</th><th>tokens</th><th>bytes</th><th>change</th></tr>${rows.join('')}</table></section>`
  );
}

/** The SDK the model read for one scenario, TypeScript and Python side by side. */
function sdkSection(input: ReportInput): string {
  const sdkOf = (pair: ReportPair | undefined, file: string) => pair?.verdicts?.find((v) => v.path.endsWith(`/${file}`))?.proposed;
  for (const scenario of [...new Set(input.pairs.map((p) => p.scenario))]) {
    const ts = sdkOf(input.pairs.find((p) => p.scenario === scenario && p.runtime === 'typescript'), 'tools-sdk.ts');
    const py = sdkOf(input.pairs.find((p) => p.scenario === scenario && p.runtime !== 'typescript' && sdkOf(p, 'tools-sdk.py') !== undefined), 'tools-sdk.py');
    if (ts === undefined || py === undefined) continue;
    return (
      `<section><h2>The SDK the model read: ${escape(scenario)}</h2><div class="side-by-side">` +
      `<figure><figcaption>TypeScript (tools-sdk.ts)</figcaption><pre>${escape(ts)}</pre></figure>` +
      `<figure><figcaption>Python (tools-sdk.py)</figcaption><pre>${escape(py)}</pre></figure></div></section>`
    );
  }
  return '';
}

function stubSection(input: ReportInput): string {
  if (input.matrix.length === 0) return '<section><h2>Stub validity</h2><p>No Python <code>tools:sdk</code> block was compiled in this run.</p></section>';
  const labels = [...new Set(input.matrix.map((c) => c.interpreter))];
  const unicode = (label: string) => input.interpreters?.find((i) => i.label === label)?.unicode ?? input.matrix.find((c) => c.interpreter === label)?.unicode ?? '?';
  const head = `<tr><th scope="col">scenario × runtime</th>${labels.map((l) => `<th scope="col">${escape(l)}<br><small>Unicode ${escape(unicode(l))}</small></th>`).join('')}</tr>`;
  const pairs = [...new Map(input.matrix.map((c) => [`${c.scenario} × ${c.runtime}`, c])).keys()];
  const rows = pairs.map((pair) => {
    const cells = labels.map((label) => {
      const c = input.matrix.find((x) => `${x.scenario} × ${x.runtime}` === pair && x.interpreter === label);
      if (!c) return '<td></td>';
      const text = `${STUB_MARK[c.outcome]}${c.belowFloor ? ' (below the floor)' : ''}`;
      return `<td class="stub ${c.outcome}" title="${escape(c.error ?? text)}">${escape(text)}</td>`;
    });
    return `<tr><th scope="row">${escape(pair)}</th>${cells.join('')}</tr>`;
  });
  const errors = input.matrix.filter((c) => c.error !== undefined).map((c) => `<li>${escape(`${c.scenario} × ${c.runtime} on ${c.interpreter}`)}: <pre class="message">${escape(c.error!)}</pre></li>`);
  return `<section><h2>Stub validity</h2><details><summary>${input.matrix.filter((c) => c.outcome === 'ok').length} of ${input.matrix.length} compile and import</summary><table class="matrix">${head}${rows.join('')}</table>${errors.length ? `<ul>${errors.join('')}</ul>` : ''}</details></section>`;
}

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:78rem;padding:0 1rem;color:#1b1f24;background:#fff}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}h4{margin:.8rem 0 .3rem;font-size:.95rem}
table.matrix{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #c8ccd1;padding:.3rem .6rem;text-align:left}
.status.pass,.count.pass,.stub.ok{background:#e6f4ea}.status.updated,.count.updated{background:#e3f0fb}
.status.mismatch,.status.failed,.count.mismatch,.count.failed,.stub.rejected,.stub.import-failed{background:#fde7e9}
.status.skipped,.count.skipped,.stub.unavailable{background:#fff5d6}.count{padding:.1rem .4rem;border-radius:.3rem;margin-right:.3rem}
details.pair{border:1px solid #c8ccd1;border-radius:.4rem;margin:.4rem 0;padding:.3rem .6rem}details.pair>summary{cursor:pointer}
pre{overflow:auto;background:#f6f8fa;padding:.5rem;border-radius:.3rem;font-size:13px}pre.message{white-space:pre-wrap}
.diff .line{display:block}.diff .del{background:#fde7e9}.diff .ins{background:#e6f4ea}.diff .hunk,.diff .head{color:#57606a}
del{background:#f5a3ab;text-decoration:line-through}ins{background:#95dca6;text-decoration:underline}
.side-by-side{display:grid;grid-template-columns:1fr 1fr;gap:1rem}figure{margin:0}figcaption{font-weight:600}
.filters{display:flex;gap:.5rem;flex-wrap:wrap;margin:.5rem 0}.filters button[aria-pressed=true]{font-weight:700;outline:2px solid #0969da}
.hidden{display:none}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}pre{background:#161b22}th,td,details.pair{border-color:#30363d}
.status.pass,.count.pass,.stub.ok,.diff .ins{background:#12361f}.status.mismatch,.status.failed,.count.mismatch,.count.failed,.stub.rejected,.diff .del{background:#4a1419}
.status.skipped,.count.skipped,.stub.unavailable{background:#3b2e05}.status.updated,.count.updated{background:#0c2d4a}del{background:#8e1519}ins{background:#196c2e}}
`;

// Filters and links: plain DOM, no network. A link into the matrix opens its pair before the browser scrolls.
const SCRIPT = `
const pairs=[...document.querySelectorAll('details.pair')];let failuresOnly=false;let runtime='';
function apply(){for(const p of pairs){p.classList.toggle('hidden',(failuresOnly&&p.dataset.failing!=='true')||(runtime!==''&&p.dataset.runtime!==runtime));}}
for(const b of document.querySelectorAll('button[data-filter]')){b.addEventListener('click',()=>{if(b.dataset.filter==='failures'){failuresOnly=!failuresOnly;b.setAttribute('aria-pressed',String(failuresOnly));}else{runtime=b.dataset.runtime===runtime?'':b.dataset.runtime;for(const o of document.querySelectorAll('button[data-runtime]'))o.setAttribute('aria-pressed',String(o.dataset.runtime===runtime));}apply();});}
for(const a of document.querySelectorAll('a[data-open]')){a.addEventListener('click',()=>{const d=document.getElementById(a.dataset.open);if(d){d.classList.remove('hidden');d.open=true;}});}
`;

/** The HTML of `.concord/report.html`. */
export function renderHtmlReport(input: ReportInput): string {
  const groups = runChangeGroups(input.pairs);
  const groupOf = new Map(groups.flatMap((g) => g.paths.map((path) => [path, g] as const)));
  const runtimes = [...new Set(input.pairs.map((p) => p.runtime))];
  const run = input.runFindings && input.runFindings.length > 0 ? `<section><h2>The whole run</h2><ul class="findings">${input.runFindings.map(findingItem).join('')}</ul></section>` : '';
  const interpreters = (input.interpreters ?? []).map((i) => `<li>${escape(i.label)}: CPython ${escape(i.version)}, Unicode ${escape(i.unicode)} (${escape(i.detail)})</li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>concord gate report ${escape(input.runId)}</title><style>${STYLE}</style></head>
<body><main>
<h1>concord gate report</h1>
<p>Run <code>${escape(input.runId)}</code>${input.floor ? ` · floor CPython ${escape(input.floor)}` : ''} · ${input.pairs.length} scenario × runtime pair(s): ${counts(input.pairs)}</p>
<section><h2>Scenarios × runtimes</h2>${matrix(input)}</section>
${run}
<section><h2>Pairs</h2>
<div class="filters" role="group" aria-label="Filters"><button type="button" data-filter="failures" aria-pressed="false">Failures only</button>${runtimes.map((r) => `<button type="button" data-filter="runtime" data-runtime="${escape(r)}" aria-pressed="false">${escape(r)} only</button>`).join('')}</div>
${input.pairs.map((p) => pairSection(p, groupOf)).join('\n')}
</section>
${changesSection(groups)}
${sdkCostSection(input)}
${sdkSection(input)}
${stubSection(input)}
${interpreters || (input.absent ?? []).length ? `<section><h2>Interpreters</h2><ul>${interpreters}${(input.absent ?? []).map((a) => `<li>not available: ${escape(a)}</li>`).join('')}</ul></section>` : ''}
</main><script>${SCRIPT}</script></body></html>
`;
}
