import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types.js';
import { importPlugins, pluginShapeProblem } from './plugin-import.js';

describe('a plugin module', () => {
  it('exports what cordis applies: a default function or object with apply, or an apply of its own', () => {
    const apply = () => undefined;
    for (const module of [{ default: apply }, { default: { name: 'notes', apply } }, { apply }, { default: class {} }])
      expect(pluginShapeProblem(module)).toBeUndefined();
    expect(pluginShapeProblem({ plugin: { name: 'notes', apply }, notes: [] })).toBe(
      'it has no default export and no apply function; it exports `plugin`, `notes`',
    );
    expect(pluginShapeProblem({ default: { name: 'notes', start: apply } })).toBe(
      'its default export is an object without an apply function (keys: name, start), not a function or an object with an apply function',
    );
    expect(pluginShapeProblem({})).toBe('it exports nothing');
  });

  it('that exports no plugin fails at once, naming the scenario line and the shape to write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'concord-plugin-shape-'));
    try {
      const file = join(dir, 'notes.mjs');
      await writeFile(file, 'export const plugin = { name: "notes", apply() {} };\n');
      const scenario = {
        name: 'notes',
        file: join(dir, 'scenarios', 'notes.yml'),
        composition: [
          { id: 'notes', plugin: '../notes.mjs', line: 7, pluginAt: { line: 8, column: 13 }, resolved: { file } },
        ],
      } as unknown as Scenario;
      await expect(importPlugins([scenario])).rejects.toThrow(
        /notes\.yml:8:13: \.\.\/notes\.mjs exports no plugin cordis can apply: it has no default export and no apply function; it exports `plugin`/,
      );
      await expect(importPlugins([scenario])).rejects.toMatchObject({
        hint: expect.stringContaining('export default { name, inject, apply(ctx, config) { … } }'),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
