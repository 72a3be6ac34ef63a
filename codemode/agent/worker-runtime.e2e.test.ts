import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { builtModule } from '../../runtimes/seam/package-root.js';
import type { CodeRuntime } from '../../runtimes/seam/types.js';
import { type BootedApp, bootApp } from '../tools/test/boot-app.js';
import { callTools, finalAnswer, scriptedModel } from '../tools/test/scripted-model.js';
import { formatRunResult } from './result-text.js';

const FIXTURE_PLUGIN = `
export const inject = ['tools'];
export function apply(ctx) {
  ctx.tools.register({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    execute: async ({ a, b }) => ({ sum: a + b }),
  });
  ctx.tools.register({
    name: 'fail',
    description: 'Always fails.',
    parameters: { type: 'object', properties: {} },
    execute: async () => { throw new Error('fail is out of order'); },
  });
}
`;

const PROGRAM = `
const [x, y]: { sum: number }[] = await Promise.all([tools.add({ a: 1, b: 2 }), tools.add({ a: 3, b: 4 })]);
let failure = '';
try {
  await tools.fail({});
} catch (error) {
  if (error instanceof ToolCallError) failure = error.toolName;
}
console.log('sums', x.sum, y.sum);
return { total: x.sum + y.sum, failure };
`;

let app: BootedApp | undefined;
let runtime: CodeRuntime | undefined;

afterEach(async () => {
  await app?.dispose();
  // The plugin owns its runtime and releases it on dispose; waiting here lets its workers end before the next file.
  await runtime?.dispose();
});

it('runs a TypeScript program on the worker runtime, assembled by the real Loader', async () => {
  const model = scriptedModel([
    callTools({ id: 'c1', name: 'run_code', arguments: { code: PROGRAM, description: 'add twice, fail once' } }),
    finalAnswer('The total is 10.'),
  ]);
  app = await bootApp(
    (dir) => [
      { id: 'runtime', name: builtModule('runtimes/worker/plugin.ts'), config: { timeoutMs: 20_000 } },
      { id: 'tools', name: builtModule('codemode/tools/plugin.ts'), config: { mode: 'code' } },
      { id: 'fixture', name: join(dir, 'fixture-tools.mjs') },
      { id: 'agent', name: builtModule('codemode/agent/plugin.ts'), config: { persona: 'You add numbers.' } },
    ],
    { provide: { model }, files: { 'fixture-tools.mjs': FIXTURE_PLUGIN } },
  );
  runtime = app.root.codeRuntime;
  expect(app.root.tools.language).toBe('typescript');

  const conversation = await app.root.agent.run('Add 1+2 and 3+4.');

  const [run] = conversation.programs;
  expect(run?.result).toEqual({ value: { total: 10, failure: 'fail' }, logs: ['sums 3 7'] });
  expect(run?.calls).toEqual([
    { id: 'call-1.1', tool: 'add', args: { a: 1, b: 2 }, value: { sum: 3 } },
    { id: 'call-1.2', tool: 'add', args: { a: 3, b: 4 }, value: { sum: 7 } },
    { id: 'call-1.3', tool: 'fail', args: {}, error: 'fail is out of order' },
  ]);
  expect(model.requests[0]?.system[2]?.text).toMatch(/^```typescript\n/);
  expect(model.requests[1]?.messages[2]).toEqual({
    role: 'tool',
    toolCallId: 'c1',
    content: formatRunResult(run!.result),
  });
  expect(conversation.answer).toBe('The total is 10.');
  expect(app.problems).toEqual([]);
});
