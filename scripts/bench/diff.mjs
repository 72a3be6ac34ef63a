// `npm run bench -- diff`: what a diff of a value changed throughout costs. The baseline is the unbounded Myers search
// (the `diff` package with no edit bound, as the gate called it before), measured in the same run on the same texts;
// the bounded diff keeps the lines both sides share and shows the rest as removed and added once the search passes
// MAX_LINE_EDITS. Sizes the baseline takes minutes on are timed for the bounded diff alone, against a target; then a
// whole gate over a snapshot changed on as many lines.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
 * command's start to its exit (booting the app, running the pair twice, comparing, diffing, writing the reports),
 * without the verdict cache, in a project of its own in a temp folder.
 */
async function gateOverChangedSnapshot(log) {
  const cli = fileURLToPath(new URL('../../bin/concord.mjs', import.meta.url));
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
    // A process of its own, as a user runs it: the texts the benches above diffed stay out of its heap.
    // The snapshot is written locally (--update=new); the changed run is judged as CI judges it.
    const gate = (word, { ci, args = [] }) => {
      const started = performance.now();
      const run = spawnSync(process.execPath, [cli, 'gate', '--no-cache', ...args], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, CONCORD_BENCH_WORD: word, NO_COLOR: '1', CI: ci ? 'true' : '' },
      });
      return { ms: performance.now() - started, run };
    };
    const written = gate('alpha', { ci: false, args: ['--update=new'] });
    if (written.run.status !== 0)
      throw new Error(`bench diff: the gate that writes the snapshot failed:\n${written.run.stdout}`);
    const changed = gate('beta', { ci: true });
    const verdict = changed.run.stdout.trimEnd().split('\n').at(-1);
    const html = (await stat(join(root, '.concord', 'report.html'))).size;
    log(
      `gate over a committed snapshot changed on ${TARGET.lines.toLocaleString('en-US')} lines: ${(changed.ms / 1000).toFixed(1)} s to its verdict (${verdict}; target ${TARGET.ms / 1000} s ${changed.ms <= TARGET.ms ? 'ok' : 'OVER'}), report.html ${(html / 1e6).toFixed(2)} MB`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
