// `npm run bench -- python-read`: what reading a 1 MB Python SDK costs concord's own readers (names, floor names,
// the declaration tests), apart from the interpreters that compile it. The baseline is the parse they made before,
// each its own with error recovery over the whole text, measured in the same run on the same texts (once: it takes
// minutes).
import { parser } from '@lezer/python';
import { built, medianMs } from './support/built.mjs';

const RUNS = 3;
/** Every reader over a 1 MB SDK of any shape, within this many ms. */
const TARGET_MS = 5_000;

const SHAPES = {
  'a class of 1,000 lines of 1,000 colons': `class tools:\n${`    ${':'.repeat(1000)}\n`.repeat(1000)}`,
  'an annotation nested 100,000 deep': `class tools:\n    x: ${'['.repeat(100_000)}int${']'.repeat(100_000)}\n`,
  'a valid SDK of 16,000 methods': `class tools:\n${Array.from({ length: 16_000 }, (_, i) => `    def tool_${i}(self, city: str, days: int = 3) -> dict: ...\n`).join('')}`,
};

const time = (fn, runs = RUNS) => medianMs(fn, runs);

export default async function bench(log) {
  const [{ pythonSdkNames }, { pastFloorNames }, { pythonDeclaresOnly, pythonDeclaresSome }] = await Promise.all([
    built('harness/languages/python/names.js'),
    built('harness/languages/python/floor-names.js'),
    built('harness/languages/python/declarations.js'),
  ]);
  for (const [shape, sdk] of Object.entries(SHAPES)) {
    // Another text each run (a comment line more): the readers share one parse of a text, and a later run must not
    // find it made.
    let run = 0;
    const fresh = () => `${sdk}# run ${run++}\n`;
    const readers = time(() => {
      const text = fresh();
      pythonDeclaresSome(text);
      pythonDeclaresOnly(text);
      pythonSdkNames(text);
      pastFloorNames(text, '3.9');
    });
    // A tree too deep for the stack ends the baseline's parse with a RangeError: timed until then.
    const baseline = time(() => {
      for (let i = 0; i < 4; i++)
        try {
          parser.parse(fresh());
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
        }
    }, 1);
    log(
      `${shape} (${(sdk.length / 1e6).toFixed(2)} MB): ${readers.toFixed(0)} ms (baseline ${baseline.toFixed(0)} ms, ${(baseline / readers).toFixed(1)}×; target ${TARGET_MS} ms) ${readers <= TARGET_MS ? 'ok' : 'OVER'}`,
    );
  }
}
