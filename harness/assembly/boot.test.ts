import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { builtModule, packageRoot, sourceAsset } from '../../runtimes/seam/package-root.js';
import { disposeSharedRuntimes } from '../../runtimes/seam/pool.js';
import type { CodeRuntime } from '../../runtimes/seam/types.js';
import { loadScenario } from '../scenario/load.js';
import { resolveComposition } from '../scenario/plugins.js';
import { Session } from '../session.js';
import { assemble, bootAssembly, composeWithModel, MODEL_PLUGIN } from './assemble.js';
import { type BootedApp, bootComposition } from './boot.js';
import { runtimeTarget } from './runtimes.js';

afterAll(() => disposeSharedRuntimes());

describe('assembly', () => {
  it('writes a real cordis.yml, boots it with the loader and disposes it cleanly', async () => {
    const scenario = resolveComposition(await loadScenario(sourceAsset('scenarios/nested-reads.yml')), packageRoot());
    const assembly = await assemble(
      composeWithModel(scenario, runtimeTarget('typescript', {}), {
        plugin: MODEL_PLUGIN,
        config: { scenario: scenario.file, language: 'typescript' },
      }),
    );
    const written = await readFile(join(assembly.dir, 'cordis.yml'), 'utf8');
    expect(written).toBe(assembly.cordisYml);
    expect(assembly.entries.map((e) => e.id)).toEqual(['runtime', 'model', 'tools', 'weather', 'agent']);

    const stderr = vi.spyOn(process.stderr, 'write');
    const consoleError = vi.spyOn(console, 'error');
    const app = await bootAssembly(assembly);
    expect(app.service<CodeRuntime>('codeRuntime').language).toBe('typescript');
    expect(
      app
        .service<{ list(): Array<{ name: string }> }>('tools')
        .list()
        .map((t) => t.name),
    ).toEqual(['get_forecast', 'list_cities']);
    // The loader rewrites the file it booted; the assembled file stays as written.
    expect(await readFile(join(assembly.dir, 'cordis.yml'), 'utf8')).toBe(written);

    await app.dispose();
    expect(app.errors).toEqual([]);
    expect(app.ctx.get('agent')).toBeUndefined();
    expect(app.ctx.get('tools')).toBeUndefined();
    expect(consoleError).not.toHaveBeenCalled();
    expect(stderr.mock.calls.map((c) => String(c[0])).join('')).not.toContain('TypeError');
    stderr.mockRestore();
    consoleError.mockRestore();
    await expect(readFile(join(assembly.dir, 'cordis.yml'))).rejects.toThrow(/ENOENT/);
  });

  it('waits at dispose for a write-back of the booted file still in flight, so removing its folder never fails it', async () => {
    const unhandled: unknown[] = [];
    const collect = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', collect);
    try {
      const scenario = resolveComposition(await loadScenario(sourceAsset('scenarios/nested-reads.yml')), packageRoot());
      for (let round = 0; round < 5; round++) {
        const app = await bootAssembly(
          await assemble(
            composeWithModel(scenario, runtimeTarget('typescript', {}), {
              plugin: MODEL_PLUGIN,
              config: { scenario: scenario.file, language: 'typescript' },
            }),
          ),
        );
        const loader = app.ctx.get('loader') as unknown as {
          file: { write(config: unknown): void };
          root: { data: unknown };
        };
        // The loader's own write-back: it starts on a timer; let the timer fire so the write is under way.
        loader.file.write(loader.root.data);
        await new Promise((resolve) => setTimeout(resolve, 0));
        await app.dispose();
        expect(app.errors).toEqual([]);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', collect);
    }
  });

  it("hands a plugin's config to the loader with its !!js expressions, which the loader evaluates as the app starts", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'concord-boot-'));
    try {
      const plugin = join(dir, 'region.mjs');
      // What the plugin was given, where the test can read it.
      await writeFile(
        plugin,
        `export const name = 'region'; export function apply(ctx, config) { globalThis.concordTestRegion = config.region; }`,
      );
      const assembly = await assemble([
        { id: 'region', name: plugin, config: { region: { __jsExpr: "['eu', 'west', 1].join('-')" } } },
      ]);
      expect(assembly.cordisYml).toBe(
        `- id: region\n  name: ${plugin}\n  config:\n    region: !!js "['eu', 'west', 1].join('-')"\n`,
      );
      const app = await bootAssembly(assembly);
      try {
        expect((globalThis as { concordTestRegion?: unknown }).concordTestRegion).toBe('eu-west-1');
      } finally {
        await app.dispose();
        delete (globalThis as { concordTestRegion?: unknown }).concordTestRegion;
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('gives every app the environment concord runs in, with what plugin modules set as they loaded, and no .env file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'concord-boot-'));
    const seen: unknown[] = [];
    (globalThis as { concordTestGreetings?: unknown[] }).concordTestGreetings = seen;
    try {
      const plugin = join(dir, 'dotenv-like.mjs');
      // What `import 'dotenv/config'` does as the module loads; each app's apply reports what it sees.
      await writeFile(
        plugin,
        `process.env.CONCORD_TEST_GREETING ??= 'hello'; export const name = 'greeting'; export function apply() { globalThis.concordTestGreetings.push(process.env.CONCORD_TEST_GREETING); }`,
      );
      // A .env file where concord runs: cordis's Node loader would read it into the environment of each app.
      await writeFile(join(dir, '.env'), 'CONCORD_TEST_FROM_DOTENV=read\n');
      const cwd = process.cwd();
      process.chdir(dir);
      try {
        for (let app = 0; app < 2; app++)
          await (await bootAssembly(await assemble([{ id: 'greeting', name: plugin }]))).dispose();
      } finally {
        process.chdir(cwd);
      }
      expect(seen).toEqual(['hello', 'hello']);
      expect(process.env.CONCORD_TEST_FROM_DOTENV).toBeUndefined();
    } finally {
      delete process.env.CONCORD_TEST_GREETING;
      delete (globalThis as { concordTestGreetings?: unknown[] }).concordTestGreetings;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names the entry and the plugin when the loader cannot import an entry', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'concord-boot-'));
    try {
      const missing = join(dir, 'missing-plugin.js');
      const file = join(dir, 'cordis.yml');
      await writeFile(
        file,
        `- id: tools\n  name: ${builtModule('codemode/tools/plugin.ts')}\n  config: { mode: code }\n- id: ghost\n  name: ${missing}\n`,
      );
      const entries = [
        { id: 'tools', name: builtModule('codemode/tools/plugin.ts') },
        { id: 'ghost', name: missing },
      ];
      await expect(bootComposition(file, dir, entries)).rejects.toThrow(
        `cordis.yml entry "ghost" (plugin ${missing}): cannot be imported`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('waits for plugins that start asynchronously', () => {
    const TOOLS = builtModule('codemode/tools/plugin.ts');
    const tool = `{ name: 'late_tool', description: 'Registered after an await.', parameters: { type: 'object', properties: {} }, execute: async () => 1 }`;

    /** Boots the tools plugin and one plugin written as `source`, with a settle deadline of `timeoutMs`. */
    async function bootWith(
      source: string,
      timeoutMs: number,
      run: (boot: Promise<BootedApp>, plugin: string) => Promise<void>,
    ): Promise<void> {
      const dir = await mkdtemp(join(tmpdir(), 'concord-boot-'));
      try {
        const plugin = join(dir, 'plugin.mjs');
        await writeFile(plugin, source);
        const file = join(dir, 'cordis.yml');
        await writeFile(
          file,
          `- id: tools\n  name: ${TOOLS}\n  config: { mode: code }\n- id: backend\n  name: ${plugin}\n`,
        );
        await run(
          bootComposition(
            file,
            dir,
            [
              { id: 'tools', name: TOOLS },
              { id: 'backend', name: plugin },
            ],
            undefined,
            timeoutMs,
          ),
          plugin,
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }

    it('an async apply has resolved before the app is handed over: its tools are registered', async () => {
      const source = `export default { name: 'late', inject: ['tools'], async apply(ctx) { await new Promise((r) => setTimeout(r, 400)); ctx.tools.register(${tool}); } };`;
      await bootWith(source, 10_000, async (boot) => {
        const app = await boot;
        try {
          expect(
            app
              .service<{ list(): Array<{ name: string }> }>('tools')
              .list()
              .map((t) => t.name),
          ).toEqual(['late_tool']);
        } finally {
          await app.dispose();
        }
      });
    });

    it('an async apply that rejects later fails the boot with its reason, naming the entry', async () => {
      const source = `export default { name: 'late', inject: ['tools'], async apply() { await new Promise((r) => setTimeout(r, 300)); throw new Error('the catalog database is down'); } };`;
      await bootWith(source, 10_000, async (boot, plugin) => {
        await expect(boot).rejects.toThrow(
          `cordis.yml entry "backend" (plugin ${plugin}): failed to start: the catalog database is down`,
        );
      });
    });

    it('an apply whose promise never settles fails at the deadline instead of hanging, naming the entry', async () => {
      const source = `export default { name: 'stuck', inject: ['tools'], apply(ctx) { ctx.tools.register(${tool}); return new Promise(() => {}); } };`;
      await bootWith(source, 500, async (boot, plugin) => {
        await expect(boot).rejects.toThrow(
          `entries did not start within 0.5s: "backend" (${plugin}) is still starting: the promise its apply() returned has not settled`,
        );
      });
    });

    it('a plugin that never started is not waited for again by a later app of the same session', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'concord-boot-'));
      const session = new Session();
      try {
        const plugin = join(dir, 'plugin.mjs');
        await writeFile(
          plugin,
          `export default { name: 'stuck', inject: ['tools'], apply() { return new Promise(() => {}); } };`,
        );
        const file = join(dir, 'cordis.yml');
        await writeFile(
          file,
          `- id: tools\n  name: ${TOOLS}\n  config: { mode: code }\n- id: backend\n  name: ${plugin}\n`,
        );
        const entries = [
          { id: 'tools', name: TOOLS },
          { id: 'backend', name: plugin },
        ];
        await expect(bootComposition(file, dir, entries, session, 300)).rejects.toThrow(
          'is still starting: the promise its apply() returned has not settled',
        );
        // A deadline no test waits out: the second app fails at once, saying why.
        await expect(bootComposition(file, dir, entries, session, 600_000)).rejects.toThrow(
          `cordis.yml entry "backend" (plugin ${plugin}): did not start within 0.3s (the promise its apply() returned had not settled) in an earlier app of this run: not waited for again`,
        );
      } finally {
        await session.dispose();
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('a plugin an entry starts itself is waited for too, and named by its own name when it never settles', async () => {
      const source = `export default { name: 'outer', apply(ctx) { ctx.plugin({ name: 'inner', apply: () => new Promise(() => {}) }); } };`;
      await bootWith(source, 500, async (boot) => {
        await expect(boot).rejects.toThrow('entries did not start within 0.5s: plugin "inner" is still starting');
      });
    });
  });
});
