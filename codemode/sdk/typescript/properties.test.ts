import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolSetArbitrary } from '../../schema/test/arbitrary.js';
import type { ToolDefinition } from '../../tools/types.js';
import { renderTypeScriptSdk } from './index.js';

const RUNS = { numRuns: 150 };

/** A tool set and the same tools in another order. */
const shuffledPair = toolSetArbitrary().chain((tools) =>
  fc.tuple(fc.constant(tools), fc.shuffledSubarray(tools, { minLength: tools.length, maxLength: tools.length })),
);

describe('renderTypeScriptSdk on random tool sets', () => {
  it('always renders, valid schemas or not', () => {
    fc.assert(
      fc.property(toolSetArbitrary(), (tools) => {
        const sdk = renderTypeScriptSdk(tools);
        expect(sdk).toMatch(/\ndeclare const tools: \{[\s\S]*\};\n$/);
        // Every tool gets one member line; exotic names are quoted, so no line of a name can leak.
        const members = sdk.match(/^ {2}\S.*\(args: .+\): Promise<.+>;$/gm) ?? [];
        expect(members).toHaveLength(tools.length);
      }),
      RUNS,
    );
  });

  it('gives byte-identical text for the same tools in any order', () => {
    fc.assert(
      fc.property(shuffledPair, ([tools, shuffled]) => {
        expect(renderTypeScriptSdk(shuffled)).toBe(renderTypeScriptSdk(tools));
      }),
      RUNS,
    );
  });

  it('writes text whose size is linear in the size of the tool set', () => {
    fc.assert(
      fc.property(toolSetArbitrary(), (tools) => {
        const inputSize = JSON.stringify(tools).length;
        expect(renderTypeScriptSdk(tools).length).toBeLessThanOrEqual(1_000 + 400 * tools.length + 40 * inputSize);
      }),
      RUNS,
    );
  });

  it('writes ten renamed copies of a tool set in about ten times the text', () => {
    const fixed = renderTypeScriptSdk([]).length;
    fc.assert(
      fc.property(toolSetArbitrary({ maxTools: 4 }), (tools) => {
        const copies: ToolDefinition[] = [];
        for (let copy = 0; copy < 10; copy++) {
          for (const tool of tools) copies.push({ ...tool, name: `${String(tool.name)}#${copy}` });
        }
        const single = renderTypeScriptSdk(tools).length - fixed;
        const tenfold = renderTypeScriptSdk(copies).length - fixed;
        // Names grow by `#n`, or by a seven-character suffix where truncated bases collide; the rest repeats exactly.
        expect(tenfold).toBeLessThanOrEqual(10 * single + 120 * copies.length);
      }),
      { numRuns: 60 },
    );
  });
});
