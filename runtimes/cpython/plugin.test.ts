import { afterEach, expect, it } from 'vitest';
import { type BootedApp, bootApp } from '../../codemode/tools/test/boot-app.js';
import { builtModule } from '../seam/package-root.js';
import { disposeSharedRuntimes } from '../seam/pool.js';
import { fixtureTools } from './test/fixtures.js';

// The built plugin, named by path in a cordis.yml and booted by the real @cordisjs/loader.

let app: BootedApp | undefined;
afterEach(async () => {
  await app?.dispose();
  app = undefined;
  await disposeSharedRuntimes();
});

it('provides ctx.codeRuntime from cordis.yml, runs programs, and releases the runtime with the app', async () => {
  app = await bootApp([
    {
      id: 'runtime',
      name: builtModule('runtimes/cpython/plugin.ts'),
      config: { isolation: 'process', timeoutMs: 20_000 },
    },
  ]);
  const runtime = app.root.codeRuntime;
  expect([runtime.language, runtime.isolation]).toEqual(['python', 'process']);

  const program =
    'print("hello")\ntry:\n    await tools.fail({})\nexcept ToolCallError as error:\n    failed = error.toolName\nreturn [await tools.echo({"n": 1}), failed]';
  expect(await runtime.run({ program, bindings: fixtureTools() })).toEqual({
    logs: ['hello'],
    value: [{ n: 1 }, 'fail'],
  });
  expect(app.problems).toEqual([]);

  await app.stop();
  // The plugin owned its runtime: stopping the app disposed it (disposeSharedRuntimes awaits that).
  await disposeSharedRuntimes();
  await expect(runtime.run({ program: 'return 1', bindings: fixtureTools() })).rejects.toThrow(/disposed/);
  expect(app.problems).toEqual([]);
});
