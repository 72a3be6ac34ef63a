import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Loader from '@cordisjs/loader';
import { Context } from 'cordis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { builtModule } from './package-root.js';
import { disposeSharedRuntimes, RUNTIME_POOL_SERVICE, RuntimePool, sharedRuntimeKeys } from './pool.js';
import type { CodeRuntime } from './types.js';

// Booted by the real @cordisjs/loader from a cordis.yml in a fresh directory (the Loader writes the file back).

interface Booted {
  ctx: Context;
  errors: string[];
  /** Resolves with the first error cordis reports. */
  firstError: Promise<string>;
}

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});
afterEach(async () => {
  await disposeSharedRuntimes();
});

/** Boots a cordis.yml holding one worker runtime entry; a `pool` is handed over as a host does. */
async function boot(config: string, pool?: RuntimePool): Promise<Booted> {
  const dir = await mkdtemp(join(tmpdir(), 'concord-plugin-'));
  dirs.push(dir);
  const plugin = builtModule('runtimes/worker/plugin.ts');
  await writeFile(join(dir, 'cordis.yml'), `- id: runtime\n  name: ${plugin}\n  config:\n${config}`);
  const ctx = new Context();
  if (pool) ctx.set(RUNTIME_POOL_SERVICE, pool);
  const errors: string[] = [];
  let reportError!: (message: string) => void;
  const firstError = new Promise<string>((resolve) => (reportError = resolve));
  ctx.on('internal/error', (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    errors.push(message);
    reportError(message);
  });
  ctx.plugin(Loader, { name: 'cordis', filename: join(dir, 'cordis.yml') });
  await ctx.start();
  return { ctx, errors, firstError };
}

/** The service once a plugin provides it (the Loader imports entries after start). */
function serviceOf(ctx: Context): Promise<CodeRuntime> {
  return new Promise((resolve) =>
    ctx.inject(['codeRuntime'], (child) => resolve(child.get('codeRuntime') as CodeRuntime)),
  );
}

/** Unloads the entries; this is the path that disposes plugins without tripping the Loader's own teardown. */
async function unload(ctx: Context): Promise<void> {
  await ctx.get('loader')!.root.stop();
}

const returnOne = { program: 'return 1;', bindings: [] };

describe('runtimePlugin booted by @cordisjs/loader', () => {
  it('provides ctx.codeRuntime from a cordis.yml entry and disposes an owned runtime with the plugin', async () => {
    const { ctx, errors } = await boot('    timeoutMs: 5000\n');
    const runtime = await serviceOf(ctx);
    expect(runtime.language).toBe('typescript');
    expect(runtime.isolation).toBe('worker-thread');
    expect(await runtime.run(returnOne)).toEqual({ value: 1, logs: [] });
    await unload(ctx);
    expect(ctx.get('codeRuntime')).toBeUndefined();
    // disposeSharedRuntimes also waits for in-flight disposals of owned runtimes.
    await disposeSharedRuntimes();
    await expect(runtime.run(returnOne)).rejects.toThrow(/disposed/);
    expect(errors).toEqual([]);
  });

  it('shares one pooled runtime between compositions and keeps it past their disposal', async () => {
    const first = await boot('    shared: true\n    timeoutMs: 5000\n');
    const second = await boot('    timeoutMs: 5000\n    shared: true\n');
    const [firstRuntime, secondRuntime] = await Promise.all([serviceOf(first.ctx), serviceOf(second.ctx)]);
    expect(sharedRuntimeKeys()).toHaveLength(1);
    await unload(first.ctx);
    // The facade of a borrower cannot dispose the pooled runtime either.
    await firstRuntime.dispose();
    expect(await secondRuntime.run(returnOne)).toEqual({ value: 1, logs: [] });
    await unload(second.ctx);
    expect(await secondRuntime.run(returnOne)).toEqual({ value: 1, logs: [] });
    await disposeSharedRuntimes();
    expect(sharedRuntimeKeys()).toEqual([]);
    await expect(secondRuntime.run(returnOne)).rejects.toThrow(/disposed/);
  });

  it('gives compositions with different configs different pooled runtimes', async () => {
    const first = await boot('    shared: true\n    timeoutMs: 5000\n');
    const second = await boot('    shared: true\n    timeoutMs: 6000\n');
    await Promise.all([serviceOf(first.ctx), serviceOf(second.ctx)]);
    expect(sharedRuntimeKeys()).toHaveLength(2);
  });

  it("borrows from the pool its host hands over: two hosts' pools share nothing, and disposing one leaves the other's runtime running", async () => {
    await using first = new RuntimePool();
    await using second = new RuntimePool();
    const shared = '    shared: true\n    timeoutMs: 5000\n';
    const [a, b] = await Promise.all([boot(shared, first), boot(shared, second)]);
    const [fromFirst, fromSecond] = await Promise.all([serviceOf(a.ctx), serviceOf(b.ctx)]);
    expect(first.keys()).toHaveLength(1);
    expect(second.keys()).toHaveLength(1);
    expect(sharedRuntimeKeys()).toEqual([]);
    await unload(a.ctx);
    await first.dispose();
    await expect(fromFirst.run(returnOne)).rejects.toThrow(/disposed/);
    expect(await fromSecond.run(returnOne)).toEqual({ value: 1, logs: [] });
    await unload(b.ctx);
  });

  it('reports a bad config through cordis with the field named, and provides nothing', async () => {
    const { ctx, firstError } = await boot('    timeoutMs: fast\n');
    expect(await firstError).toMatch(/worker runtime config: timeoutMs must be an integer/);
    expect(ctx.get('codeRuntime')).toBeUndefined();
  });
});
