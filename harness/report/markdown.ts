import { fencedBlock } from '../../contract/sdk-section.js';
import { COVERAGE_HINT, coverageSentences } from '../checks/tool-coverage.js';
import type { Finding } from '../checks/types.js';
import { groupHeading, runChangeGroups } from '../snapshot/change-groups.js';
import { renderDiff } from '../text/diff.js';
import { codeSpan, plain } from './github-markdown.js';
import type { ReportInput, ReportPair } from './outcome.js';
import { pairGroups } from './pair-groups.js';
import { sdkCost, sdkCostMarkdown } from './sdk-cost.js';

const MARK = { ok: '✓', rejected: '✗', 'import-failed': '✗ import', unavailable: '?' } as const;

/** Text safe inside one table cell. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/**
 * Each distinct snapshot change once, with the files that share it (`maxLines` cuts each diff and
 * `maxChanges` the number of changes shown, pointing to `rest` for the remainder). Failing pairs name their
 * changes by these numbers.
 */
export function changesSection(
  input: Pick<ReportInput, 'pairs'>,
  options: { heading: string; maxLines?: number; maxChanges?: number; rest?: string },
): string[] {
  const groups = runChangeGroups(input.pairs);
  if (groups.length === 0) return [];
  const files = groups.reduce((n, g) => n + g.paths.length, 0);
  const lines = [
    options.heading,
    '',
    `${groups.length} distinct change(s) in ${files} file(s); each is shown once.`,
    '',
  ];
  const shown = options.maxChanges === undefined ? groups : groups.slice(0, options.maxChanges);
  for (const g of shown) {
    lines.push(`**change ${g.number}** — ${groupHeading(g, codeSpan)}`, '');
    if (!g.diff) continue;
    const diff = renderDiff(g.diff, false).split('\n');
    const cut = options.maxLines !== undefined && diff.length > options.maxLines;
    lines.push(fencedBlock((cut ? diff.slice(0, options.maxLines) : diff).join('\n'), 'diff'), '');
    if (cut)
      lines.push(`… ${diff.length - options.maxLines!} more line(s) in ${options.rest ?? 'the HTML report'}`, '');
  }
  const left = groups.slice(shown.length);
  if (left.length > 0) {
    const leftFiles = left.reduce((n, g) => n + g.paths.length, 0);
    const numbers = `change${left.length === 1 ? '' : 's'} ${left.map((g) => g.number).join(', ')}`;
    lines.push(
      `… ${left.length} more distinct change(s) in ${leftFiles} file(s) (${numbers}) in ${options.rest ?? 'the HTML report'}`,
      '',
    );
  }
  return lines;
}

function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** The stub-validity section: its heading, the matrix, and each rejection's error. */
export function matrixSection(input: ReportInput): string[] {
  const lines = ['## Stub validity', ''];
  if (input.matrix.length === 0) {
    lines.push('No Python `tools:sdk` block was compiled in this run.', '');
    return lines;
  }
  const columns = [
    ...new Set([...(input.interpreters ?? []).map((i) => i.label), ...input.matrix.map((c) => c.interpreter)]),
  ].filter((label) => input.matrix.some((c) => c.interpreter === label));
  const pairs = [...new Map(input.matrix.map((c) => [`${c.scenario}\u0000${c.runtime}`, c])).values()];
  lines.push(
    `Each Python \`tools:sdk\` block compiled and executed as a module on every interpreter. ✓ compiles and imports · ✗ does not compile · ` +
      `✗ import compiles but raises when executed · ? the interpreter could not run; ` +
      `(…) below the floor${input.floor ? ` ${input.floor}` : ''}, where a rejection is only a note. Numbers point to the errors below.`,
    '',
  );
  lines.push(
    tableRow(['scenario', 'runtime', ...columns.map(cell)]),
    tableRow(['---', '---', ...columns.map(() => ':---:')]),
  );
  // One numbered error per distinct (interpreter, error) however many pairs it shows in: one renderer
  // change read by every Python runtime and scenario is one error to read.
  const errors = new Map<string, { number: number; pairs: string[]; text: string }>();
  for (const pair of pairs) {
    const row = columns.map((label) => {
      const found = input.matrix.find(
        (c) => c.scenario === pair.scenario && c.runtime === pair.runtime && c.interpreter === label,
      );
      if (found === undefined) return '';
      let mark: string = MARK[found.outcome];
      if (found.error !== undefined) {
        const on = `on ${found.interpreter}${found.python ? ` (CPython ${found.python}, Unicode ${found.unicode})` : ''}${found.belowFloor ? ', below the floor' : ''}`;
        const key = `${on}\u0000${found.error}`;
        const error = errors.get(key) ?? {
          number: errors.size + 1,
          pairs: [],
          text: `${on}:\n\n${fencedBlock(found.error, 'text').replace(/^/gm, '   ')}`,
        };
        errors.set(key, error);
        error.pairs.push(`**${found.scenario} × ${found.runtime}**`);
        mark += ` ${error.number}`;
      }
      return found.belowFloor ? `(${mark})` : mark;
    });
    lines.push(tableRow([cell(pair.scenario), cell(pair.runtime), ...row]));
  }
  lines.push('');
  for (const e of errors.values())
    lines.push(
      `${e.number}. ${e.pairs.length > 1 ? `the same error in ${e.pairs.length} pairs, ` : ''}${e.pairs.join(', ')} ${e.text}`,
      '',
    );
  return lines;
}

function probeSection(input: ReportInput): string[] {
  if (input.probes === undefined) return [];
  const lines = ['## Adversarial probe', ''];
  if (input.probes.length === 0) return [...lines, 'No runtime ran, so no renderer was probed.', ''];
  lines.push(
    'A built-in tool set chosen to break SDK renderers (keywords of every supported CPython, mangled and magic names, NFKC look-alikes ' +
      'and collisions, combining marks, joiners, Hangul jamo, hostile text, deep nesting, long unions, letters past the floor), ' +
      'registered through `ctx.tools.register` and read back from the `tools:sdk` section the model received. ✓ accepted · ✗ rejected · ? could not run.' +
      (input.stepTimes
        ? ` The probe took ${Math.round(input.stepTimes.probe)} ms, the renderer-floor step ${Math.round(input.stepTimes.rendererFloor)} ms.`
        : ''),
    '',
  );
  lines.push(
    tableRow(['language', 'app', 'tools', 'verdict', 'names', 'time']),
    tableRow(['---', '---', '---:', '---', '---', '---:']),
  );
  for (const p of input.probes) {
    const failed = p.findings.some((f) => f.severity === 'error');
    lines.push(
      tableRow([
        p.language,
        cell(`${p.scenario} × ${p.runtime}`),
        String(p.tools - p.refused.length),
        failed ? '✗ fails' : '✓ passes',
        p.naming.length === 0 ? '✓ unique, each tool reachable once' : `✗ ${p.naming.length} problem(s)`,
        `${Math.round(p.elapsedMs)} ms`,
      ]),
    );
  }
  lines.push('');
  for (const p of input.probes) {
    lines.push(`### ${p.language}`, '');
    if (p.refused.length > 0)
      lines.push(
        `The app already has tools named ${p.refused.map((n) => `\`${cell(JSON.stringify(n))}\``).join(', ')}; its own stand in for them.`,
        '',
      );
    if (p.cells.length > 0) {
      lines.push(tableRow(['judge', 'reports', 'outcome']), tableRow(['---', '---', ':---:']));
      for (const c of p.cells)
        lines.push(
          tableRow([
            cell(c.interpreter),
            cell(c.python ? `CPython ${c.python}, Unicode ${c.unicode}` : c.detail),
            MARK[c.outcome],
          ]),
        );
      lines.push('');
    }
    if (p.findings.length > 0) lines.push(`${p.findings.length} finding(s): see the whole run's findings below.`, '');
  }
  return lines;
}

function interpretersSection(input: ReportInput): string[] {
  if (input.interpreters === undefined && input.absent === undefined) return [];
  const lines = ['## Interpreters', ''];
  if ((input.interpreters ?? []).length > 0) {
    lines.push(tableRow(['interpreter', 'version', 'Unicode', 'from']), tableRow(['---', '---', '---', '---']));
    for (const i of input.interpreters!) lines.push(tableRow([cell(i.label), i.version, i.unicode, cell(i.detail)]));
    lines.push('');
  }
  for (const reason of input.absent ?? []) lines.push(`- not available: ${reason}`);
  if ((input.absent ?? []).length > 0) lines.push('');
  return lines;
}

function finding(f: Finding): string {
  const [first, ...rest] = f.message.split('\n');
  const head = `- **${f.severity}** \`${f.check}\`: ${first}`;
  return rest.length === 0 ? head : `${head}\n\n${fencedBlock(rest.join('\n'), 'text').replace(/^/gm, '  ')}\n`;
}

function findingsSection(input: ReportInput): string[] {
  const lines = ['## Findings', ''];
  if ((input.runFindings ?? []).length > 0) lines.push('### The whole run', '', ...input.runFindings!.map(finding), '');
  const noted = input.pairs.filter((p) => p.findings.length > 0 || p.reason !== undefined);
  if (noted.length === 0 && (input.runFindings ?? []).length === 0) lines.push('No check found anything.', '');
  // Pairs with the same status, reason and findings (a note every Python runtime gives alike) are said once.
  const said = (pair: ReportPair) =>
    [
      pair.status,
      pair.reason === undefined ? '' : fencedBlock(pair.reason, 'text'),
      ...pair.findings.map(finding),
    ].join('\n\n');
  for (const { pairs, names } of pairGroups(noted, said)) {
    const [pair] = pairs as [ReportPair];
    lines.push(`### ${names}: ${pair.status}`, '');
    if (pair.reason !== undefined) lines.push(fencedBlock(pair.reason, 'text'), '');
    lines.push(...pair.findings.map(finding), '');
  }
  return lines;
}

/** Registered tools no program called, per language: a warning, or an error under `coverage: { uncalled: error }`. */
export function coverageSection(input: Pick<ReportInput, 'coverage'>, heading: string): string[] {
  const sentences = coverageSentences(input.coverage);
  if (sentences.length === 0) return [];
  const word = input.coverage!.level === 'error' ? '**error**' : '**warning**';
  return [
    heading,
    '',
    ...sentences.map((s) => `- ${word} ${plain(s)}`),
    '',
    COVERAGE_HINT.replace(/^./, (c) => c.toUpperCase()) + '.',
    '',
  ];
}

/** The Markdown of `.concord/report.md`. */
export function renderReport(input: ReportInput): string {
  const count = (status: string) => input.pairs.filter((p) => p.status === status).length;
  const statuses = [...new Set(input.pairs.map((p) => p.status))].map((s) => `${count(s)} ${s}`).join(', ');
  const lines = [
    '# concord gate report',
    '',
    `Run \`${input.runId}\`${input.floor ? ` · floor CPython ${input.floor}` : ''} · ${input.pairs.length} scenario × runtime pair(s)${statuses ? `: ${statuses}` : ''}.`,
    '',
    ...changesSection(input, { heading: '## Changes' }),
    ...sdkCostMarkdown(sdkCost(input.pairs)),
    ...coverageSection(input, '## Tool coverage'),
    ...matrixSection(input),
    ...probeSection(input),
    ...interpretersSection(input),
    ...findingsSection(input),
  ];
  return (
    lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}
