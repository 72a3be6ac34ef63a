import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { builtModule } from '../../runtimes/seam/package-root.js';
import type { CodeRuntime } from '../../runtimes/seam/types.js';
import { Host } from '../../test/host-requirements.js';
import { type BootedApp, bootApp } from '../tools/test/boot-app.js';
import { callTools, finalAnswer, scriptedModel } from '../tools/test/scripted-model.js';

// A name that cannot be a Python attribute, so the SDK lists it for `tools["..."]`, as run_code says.
const FIXTURE_PLUGIN = `
export const inject = ['tools'];
export function apply(ctx) {
  ctx.tools.register({
    name: 'add-numbers',
    description: 'Adds two numbers.',
    parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
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

// Exactly what the Python run_code description promises: dict arguments, subscript for exotic names,
// ToolCallError with toolName, printed lines and the returned value.
const PROGRAM = `
import asyncio
x, y = await asyncio.gather(tools["add-numbers"]({"a": 1, "b": 2}), tools["add-numbers"]({"a": 3, "b": 4}))
failure = ""
try:
    await tools.fail({})
except ToolCallError as error:
    failure = error.toolName
print("sums", x["sum"], y["sum"])
return {"total": x["sum"] + y["sum"], "failure": failure}
`;

const python3 = await Host.with('python3');

let app: BootedApp | undefined;
let runtime: CodeRuntime | undefined;

afterEach(async () => {
  await app?.dispose();
  await runtime?.dispose();
});

python3.it('runs a Python program on the CPython process runtime, assembled by the real Loader', {}, async () => {
  const model = scriptedModel([
    callTools({ id: 'c1', name: 'run_code', arguments: { code: PROGRAM, description: 'add twice, fail once' } }),
    finalAnswer('The total is 10.'),
  ]);
  app = await bootApp(
    (dir) => [
      {
        id: 'runtime',
        name: builtModule('runtimes/cpython/plugin.ts'),
        config: { isolation: 'process', timeoutMs: 20_000 },
      },
      { id: 'tools', name: builtModule('codemode/tools/plugin.ts'), config: { mode: 'code' } },
      { id: 'fixture', name: join(dir, 'fixture-tools.mjs') },
      { id: 'agent', name: builtModule('codemode/agent/plugin.ts'), config: { persona: 'You add numbers.' } },
    ],
    { provide: { model }, files: { 'fixture-tools.mjs': FIXTURE_PLUGIN } },
  );
  runtime = app.root.codeRuntime;
  expect(app.root.tools.language).toBe('python');
  expect(app.root.tools.sdkSection()).toContain('tools["add-numbers"]');

  const conversation = await app.root.agent.run('Add 1+2 and 3+4.');

  const [run] = conversation.programs;
  expect(run?.result).toEqual({ value: { total: 10, failure: 'fail' }, logs: ['sums 3 7'] });
  expect(run?.calls).toEqual([
    { id: 'call-1.1', tool: 'add-numbers', args: { a: 1, b: 2 }, value: { sum: 3 } },
    { id: 'call-1.2', tool: 'add-numbers', args: { a: 3, b: 4 }, value: { sum: 7 } },
    { id: 'call-1.3', tool: 'fail', args: {}, error: 'fail is out of order' },
  ]);
  expect(model.requests[0]?.tools[0]?.description).toContain('Python');
  expect(app.problems).toEqual([]);
});
