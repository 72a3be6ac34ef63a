import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BindingNamespace, CodeRuntime, RunResult } from '../seam/types.js';
import { createWorkerRuntime } from './runtime.js';

// Programs that attack the worker runtime. Each must end in the stated way, with the host up and the next
// run clean.

const tools: BindingNamespace = {
  name: 'tools',
  functions: new Map([['echo', async (args) => args]]),
  errorClass: { name: 'ToolCallError', memberProperty: 'toolName' },
};

let runtime: CodeRuntime;
beforeAll(() => {
  runtime = createWorkerRuntime({ timeoutMs: 20_000, heapMb: 64, outputLimitBytes: 100_000 });
});
afterAll(async () => {
  await runtime.dispose();
});

const run = (program: string, timeoutMs?: number): Promise<RunResult> =>
  runtime.run({ program, bindings: [tools], ...(timeoutMs === undefined ? {} : { timeoutMs }) });

async function expectCleanNextRun(): Promise<void> {
  const result = await run('return { echo: await tools.echo({ ok: true }), leftover: typeof globalThis.leftover };');
  expect(result).toEqual({ value: { echo: { ok: true }, leftover: 'undefined' }, logs: [] });
}

describe('hostile programs on the TypeScript worker', () => {
  it('a memory bomb hits the heap limit and ends in worker-exit', async () => {
    const result = await run(
      'globalThis.leftover = [];\nfor (;;) globalThis.leftover.push(new Array(100000).fill(Math.random()));',
    );
    expect(result.error).toEqual({ kind: 'worker-exit', message: 'the program ran out of memory (heap limit 64 MB)' });
    await expectCleanNextRun();
  });

  it('huge output ends in output-limit without flooding the host', async () => {
    const result = await run('for (;;) console.log("y".repeat(1000));');
    expect(result.error?.kind).toBe('output-limit');
    expect(result.logs.length).toBeLessThanOrEqual(100);
    await expectCleanNextRun();
  });

  it('has no process to exit, kill or read the environment with', async () => {
    const result = await run('return [typeof process, typeof require, typeof fetch];');
    expect(result.value).toEqual(['undefined', 'undefined', 'undefined']);
    const exit = await run('process.exit(0);');
    expect(exit.error).toMatchObject({ kind: 'exception', name: 'ReferenceError' });
    await expectCleanNextRun();
  });

  it('cannot import modules (no message port, no file system)', async () => {
    const result = await run('const { parentPort } = await import("node:worker_threads");\nparentPort.close();');
    expect(result.error?.kind).toBe('exception');
    expect(result.error?.message).toMatch(/`import\(\)` is not available/);
    await expectCleanNextRun();
  });

  it("has none of the worker's globals to tamper with", async () => {
    const result = await run(
      'return [typeof MessagePort, typeof postMessage, typeof Buffer, typeof structuredClone, typeof SharedArrayBuffer];',
    );
    expect(result).toEqual({ value: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined'], logs: [] });
    await expectCleanNextRun();
  });

  it('polluting prototypes and patching JSON neither fools the guest nor reaches the host', async () => {
    const result = await run(
      [
        'Object.prototype.polluted = "yes";',
        'JSON.parse = () => ({ forged: true });',
        'return await tools.echo({ a: 1 });',
      ].join('\n'),
    );
    expect(result).toEqual({ value: { a: 1 }, logs: [] });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    await expectCleanNextRun();
  });

  it('a forged non-JSON result from a patched serializer is caught by the host', async () => {
    const result = await run('JSON.stringify = () => "{not json";\nreturn { a: 1 };');
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({ a: 1 });
  });

  it('an exception thrown from a timer ends the run as an exception', async () => {
    const result = await run('setTimeout(() => { throw new TypeError("late"); }, 0);\nawait new Promise(() => {});');
    expect(result.error).toMatchObject({ kind: 'exception', name: 'TypeError', message: 'late' });
    await expectCleanNextRun();
  });

  it('an unawaited rejected promise does not fail the run', async () => {
    const result = await run('Promise.reject(new Error("ignored"));\nreturn "fine";');
    expect(result).toEqual({ value: 'fine', logs: [] });
  });
});
