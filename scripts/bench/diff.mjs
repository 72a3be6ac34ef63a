// `npm run bench -- diff`: what a diff of a value changed throughout costs. The baseline is the unbounded Myers search
// (the `diff` package with no edit bound, as the gate called it before), measured in the same run on the same texts;
// the bounded diff keeps the lines both sides share and shows the rest as removed and added once the search passes
// MAX_LINE_EDITS. Sizes the baseline takes minutes on are timed for the bounded diff alone, against a target; then a
// whole gate over a snapshot changed on as many lines.
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffWordsWithSpace, structuredPatch } from 'diff';
import { built, medianMs } from './support/built.mjs';

const RUNS = 3;
/** A changed value of this many lines, diffed and rendered, within this many ms. */
const TARGET = { lines: 50_000, ms: 10_000 };

const time = (fn, runs = RUNS) => medianMs(fn, runs);

const changedLines = (n) => [
  Array.from({ length: n }, (_, i) => `  "line ${i}": "alpha ${i}",`).join('\n'),
  Array.from({ length: n }, (_, i) => `  "line ${i}": "beta ${i}",`).join('\n'),
];
const changedWords = (n) => [
  Array.from({ length: n }, (_, i) => `w${i}`).join(' '),
  Array.from({ length: n }, (_, i) => `v${i}`).join(' '),
];

export default async function bench(log) {
  const { textDiff, renderDiff, boundedWordDiff } = await built('harness/text/diff.js');
  const labels = { before: 'committed', after: 'proposed' };
  const ours = (a, b) => renderDiff(textDiff(labels, a, b), false);
  for (const n of [1_000, 2_000, 4_000]) {
    const [a, b] = changedLines(n);
    const baseline = time(() => structuredPatch('a', 'b', a, b, undefined, undefined, { context: 3 }));
    const bounded = time(() => ours(a, b));
    log(
      `${n} changed lines: ${bounded.toFixed(0)} ms (baseline ${baseline.toFixed(0)} ms, ${(baseline / bounded).toFixed(1)}×)`,
    );
  }
  for (const n of [1_000, 2_000, 4_000]) {
    const [a, b] = changedWords(n);
    const baseline = time(() => diffWordsWithSpace(a, b));
    const bounded = time(() => boundedWordDiff(a, b) ?? ours(a, b));
    log(
      `a line of ${n} changed words: ${bounded.toFixed(0)} ms (baseline ${baseline.toFixed(0)} ms, ${(baseline / bounded).toFixed(1)}×)`,
    );
  }
  const [a, b] = changedLines(TARGET.lines);
  const big = time(() => ours(a, b));
  const [wa, wb] = changedWords(150_000);
  const line = time(() => ours(`x\n${wa}\ny`, `x\n${wb}\ny`));
  log(
    `${TARGET.lines} changed lines: ${big.toFixed(0)} ms (target ${TARGET.ms} ms) ${big <= TARGET.ms ? 'ok' : 'OVER'}`,
  );
  log(`a changed line of 150,000 words (${(wa.length / 1e6).toFixed(1)} MB): ${line.toFixed(0)} ms`);
  await gateOverChangedSnapshot(log);
}

/**
 * The whole gate, in CI mode, over a committed snapshot whose transcript changes on every one of its 50,000 lines: a
 * tool answers a list of 50,000 strings, the snapshot is written, then the tool answers other words. Timed from the
 * gate's start to its verdict (booting the app, running the pair, comparing, diffing, writing the reports), in a
 * project of its own in a temp folder.
 */
async function gateOverChangedSnapshot(log) {
  const { runGate } = await built('harness/gate/gate.js');
  const { projectAt } = await built('harness/project/root.js');
  const root = await mkdtemp(join(tmpdir(), 'concord-bench-gate-diff-'));
  try {
    await mkdir(join(root, 'scenarios'));
    await mkdir(join(root, 'plugins'));
    await writeFile(join(root, 'concord.config.yml'), 'runtimes: [typescript]\n');
    await writeFile(
      join(root, 'plugins', 'export.mjs'),
      `export default { name: 'export', inject: ['tools'], apply(ctx) {
  ctx.tools.register({ name: 'export_rows', description: 'Every row.', parameters: { type: 'object', properties: {} },
    execute: async () => Array.from({ length: ${TARGET.lines} }, (_, i) => process.env.CONCORD_BENCH_WORD + ' ' + i) });
} };
`,
    );
    await writeFile(
      join(root, 'scenarios', 'export.yml'),
      `name: export
description: A tool answering ${TARGET.lines} rows.
composition:
  - { id: tools, plugin: concord/tools, config: { mode: code } }
  - { id: export, plugin: ../plugins/export.mjs }
  - { id: agent, plugin: concord/agent, config: { persona: Brief. } }
script:
  - user: Rows?
  - assistant:
      run_code:
        description: rows
        typescript: "const rows = await tools.export_rows({}); return String(rows).length;"
        python: "return len(await tools.export_rows({}))"
  - final: Done.
`,
    );
    const gate = (options) =>
      runGate({ project: projectAt(root), selection: {}, jobs: 1, color: false, out: () => undefined, ...options });
    process.env.CONCORD_BENCH_WORD = 'alpha';
    const written = await gate({ update: 'new', ci: false });
    if (!written.ok) throw new Error('bench diff: the gate that writes the snapshot failed');
    process.env.CONCORD_BENCH_WORD = 'beta';
    const started = performance.now();
    const changed = await gate({ update: 'none', ci: true });
    const ms = performance.now() - started;
    const html = (await stat(join(root, '.concord', 'report.html'))).size;
    log(
      `gate over a committed snapshot changed on ${TARGET.lines.toLocaleString('en-US')} lines: ${(ms / 1000).toFixed(1)} s to its verdict (${changed.pairs[0]?.status}), report.html ${(html / 1e6).toFixed(2)} MB`,
    );
  } finally {
    delete process.env.CONCORD_BENCH_WORD;
    await rm(root, { recursive: true, force: true });
  }
}
