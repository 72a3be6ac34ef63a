// `npm run bench -- diff`: what a diff of a value changed throughout costs. The baseline is the unbounded Myers search
// (the `diff` package with no edit bound, as the gate called it before), measured in the same run on the same texts;
// the bounded diff keeps the lines both sides share and shows the rest as removed and added once the search passes
// MAX_LINE_EDITS. Sizes the baseline takes minutes on are timed for the bounded diff alone, against a target.
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
}
