// The smallest project of a user's own, outside concord's repository: one scenario on concord's registry and
// agent and a tool plugin of the project's, with one program in both languages. The tests and the benches
// (`npm run bench -- cold`, which runs from dist/) build their projects from it.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A tool plugin of a project's own, written against the public contract only (loads as `.ts`, no build). */
export const STOCK_PLUGIN = `import type { RegisteredTool, ToolRegistryService } from 'concord/contract';
const count: RegisteredTool = {
  name: 'count_items',
  description: 'Counts the items in stock.',
  parameters: { type: 'object', properties: {} },
  execute: async () => ({ count: 3 }),
};
export default { name: 'stock', inject: ['tools'], apply(ctx: { tools: ToolRegistryService }) { ctx.tools.register(count); } };
`;

/**
 * The stock plugin in JavaScript (`.mjs`): the same tool, so the same SDK and verdicts, for tests about a
 * command rather than about plugin loading; a `.ts` plugin starts tsx's loader in each command that loads it.
 */
export const STOCK_PLUGIN_JS = STOCK_PLUGIN.replace(/^import type .*\n/m, '')
  .replace(': RegisteredTool', '')
  .replace('(ctx: { tools: ToolRegistryService })', '(ctx)');

/**
 * A scenario on concord's registry and agent and a plugin of the project's (the stock plugin by default; any
 * plugin that registers `count_items` fits), with one program in both languages.
 */
export const stockScenario = (name: string, runtimes = '[typescript]', plugin = './plugins/stock.ts') => `name: ${name}
description: The model counts the stock.
runtimes: ${runtimes}
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: stock
    plugin: ${plugin}
  - id: agent
    plugin: concord/agent
    config: { persona: You keep the shop. }
script:
  - user: How many items are in stock?
  - assistant:
      run_code:
        description: Count the items
        typescript: return await tools.count_items({});
        python: return await tools.count_items({})
  - final: Three.
`;

/**
 * A project outside this repository: `scenarios/<name>.yml` and its plugin below `root`, the plugin in
 * TypeScript (`stock.ts`) or, with `javascript`, as `stock.mjs`.
 */
export async function writeStockProject(
  root: string,
  name = 'stock',
  options: { runtimes?: string; javascript?: boolean } = {},
): Promise<void> {
  const plugin = options.javascript ? 'stock.mjs' : 'stock.ts';
  await mkdir(join(root, 'scenarios', 'plugins'), { recursive: true });
  await writeFile(join(root, 'scenarios', `${name}.yml`), stockScenario(name, options.runtimes, `./plugins/${plugin}`));
  await writeFile(join(root, 'scenarios', 'plugins', plugin), options.javascript ? STOCK_PLUGIN_JS : STOCK_PLUGIN);
}
