import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listChain, objectChain, oneOfChain } from '../../schema/deep-schemas.js';
import { toolSetArbitrary } from '../../schema/test/arbitrary.js';
import type { ToolDefinition } from '../../tools/types.js';
import { renderPythonSdk } from './index.js';

const withArgs = (name: string, parameters: unknown): ToolDefinition => ({ name, description: '', parameters });

describe('random tool sets', () => {
  it('always render, byte-identically for any order of the same tools', () => {
    fc.assert(
      fc.property(toolSetArbitrary({ maxTools: 6, maxDepth: 4 }), fc.infiniteStream(fc.nat()), (tools, seeds) => {
        const text = renderPythonSdk(tools);
        expect(text.endsWith('tools: Tools\n')).toBe(true);
        const shuffled = tools
          .map((tool) => ({ tool, key: seeds.next().value as number }))
          .sort((a, b) => a.key - b.key)
          .map(({ tool }) => tool);
        expect(renderPythonSdk(shuffled)).toBe(text);
      }),
      { numRuns: 150 },
    );
  });

  it('grow linearly with the number of tools', () => {
    fc.assert(
      fc.property(toolSetArbitrary({ maxTools: 3, maxDepth: 3, invalid: false }), (tools) => {
        // The same tools under distinct names: ten times the tools, about ten times the text.
        const copies = (count: number) =>
          Array.from({ length: count }, (_, i) => tools.map((tool, j) => ({ ...tool, name: `t${i}_${j}` }))).flat();
        const base = renderPythonSdk([]).length;
        const one = renderPythonSdk(copies(2)).length - base;
        const ten = renderPythonSdk(copies(20)).length - base;
        expect(ten).toBeLessThanOrEqual(one * 11 + 1);
      }),
      { numRuns: 40 },
    );
  });
});

describe('deep schemas grow the text linearly', () => {
  const ratio = (build: (depth: number) => unknown, depth: number) =>
    renderPythonSdk([withArgs('deep', { type: 'object', properties: { a: build(depth * 10) } })]).length /
    renderPythonSdk([withArgs('deep', { type: 'object', properties: { a: build(depth) } })]).length;

  it('a single-field object chain (class names are capped)', () => {
    expect(ratio(objectChain, 300)).toBeLessThan(11);
  });

  it('a oneOf chain and a list chain', () => {
    expect(ratio(oneOfChain, 1000)).toBeLessThan(11);
    // A list chain is capped at a fixed nesting: ten times deeper is no longer at all.
    expect(ratio(listChain, 100)).toBe(1);
  });
});
