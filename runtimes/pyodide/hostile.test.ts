import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../seam/types.js';
import { fixtureTools } from '../test/fixture-tools.js';
import { runSnapshots } from '../test/pyodide-snapshots.js';
import { createPyodideRuntime, type PyodideRuntime } from './runtime.js';

const SECRET_NAME = 'CONCORD_PYODIDE_TEST_SECRET';
/** Every worker these cases start (each replacement too) boots from the run's memory snapshot, as a gate's do. */
const snapshots = runSnapshots();

describe('pyodide runtime: hostile programs', () => {
  let runtime: PyodideRuntime;
  const run = (program: string, timeoutMs?: number): Promise<RunResult> =>
    runtime.run({ program, bindings: fixtureTools(), ...(timeoutMs === undefined ? {} : { timeoutMs }) });

  /** The host is up and the next run starts from scratch. */
  const expectCleanNextRun = async (): Promise<void> => {
    const result = await run('return [await tools.echo({"n": 1}), sorted(globals()), len([1, 2])]');
    expect(result).toEqual({ logs: [], value: [{ n: 1 }, ['ToolCallError', '__builtins__', 'tools'], 2] });
  };

  beforeAll(async () => {
    process.env[SECRET_NAME] = 'do-not-leak';
    runtime = createPyodideRuntime(
      { timeoutMs: 20_000, outputLimitBytes: 100_000, memoryLimitBytes: 128 * 1024 * 1024 },
      { snapshots },
    );
    await runtime.warm();
  });
  afterAll(async () => {
    delete process.env[SECRET_NAME];
    await runtime?.dispose();
  });

  it('binds exactly tools and ToolCallError; SDK TypedDicts are not there', async () => {
    expect((await run('return sorted(globals())')).value).toEqual(['ToolCallError', '__builtins__', 'tools']);
    const typedDict = await run('return await tools.echo(EchoArgs(n=1))');
    expect(typedDict.error).toMatchObject({ kind: 'exception', name: 'NameError' });
  });

  it('turns a memory bomb into MemoryError at the configured cap, and recovers', async () => {
    const result = await run('chunks = []\nwhile True:\n    chunks.append(bytearray(8 * 1024 * 1024))');
    expect(result.error).toMatchObject({ kind: 'exception', name: 'MemoryError' });
    await expectCleanNextRun();
  });

  it('stops a program printing forever at the output cap', async () => {
    const result = await run('while True:\n    print("y" * 1000)');
    expect(result.error?.kind).toBe('output-limit');
    const logBytes = result.logs.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    expect(logBytes).toBeLessThanOrEqual(100_000);
    expect(result.logs.length).toBeGreaterThan(0);
    await expectCleanNextRun();
  });

  it('refuses one huge line with no newline', async () => {
    const result = await run('print("z" * 500_000, end="")\nreturn 1');
    expect(result.error?.kind).toBe('output-limit');
    await expectCleanNextRun();
  });

  it('reports a non-JSON return value as invalid-output', async () => {
    const result = await run('return {"when": object()}');
    expect(result.error?.kind).toBe('invalid-output');
    expect(result.value).toBeUndefined();
  });

  it('treats sys.exit as an exception and keeps serving', async () => {
    const result = await run('import sys\nsys.exit(3)');
    expect(result.error).toMatchObject({ kind: 'exception', name: 'SystemExit' });
    await expectCleanNextRun();
  });

  it('reports os._exit as worker-exit and starts a fresh interpreter', async () => {
    const result = await run('import os\nos._exit(1)');
    expect(result.error).toMatchObject({ kind: 'worker-exit', message: expect.stringContaining('exit(1)') });
    await expectCleanNextRun();
  });

  it('reports a worker that exits under the program as worker-exit, then starts a fresh one', async () => {
    // Pyodide reaches the JavaScript side of its worker process: exiting it is the wasm twin of closing the channel.
    const result = await run('import js\njs.process.exit(7)');
    expect(result.error?.kind).toBe('worker-exit');
    await expectCleanNextRun();
  });

  it('undoes patches to stdlib modules, stdlib classes and builtins before the next run', async () => {
    const patched = await run(
      [
        'import builtins, json, os',
        'builtins.abs = lambda value: -1',
        'json.dumps = lambda *a, **k: "patched"',
        'json.JSONEncoder.extra = "patched"',
        'json.JSONDecoder.decode = lambda self, text: "patched"',
        'os.environ["PATCHED"] = "yes"',
        'import sys',
        'sys.setrecursionlimit(77)',
        'return [abs(5), json.dumps(1), json.loads("1")]',
      ].join('\n'),
    );
    expect(patched).toEqual({ logs: [], value: [-1, 'patched', 'patched'] });
    const fresh = await run(
      [
        'import json, os, sys',
        'return [abs(5), json.dumps(1), json.loads("1"), hasattr(json.JSONEncoder, "extra"), "PATCHED" in os.environ, sys.getrecursionlimit() != 77]',
      ].join('\n'),
    );
    expect(fresh).toEqual({ logs: [], value: [5, '1', 1, false, false, true] });
  });

  it('forgets modules a program imported and files it wrote', async () => {
    const writer = await run(
      'import csv, sys\nopen("/tmp/left-behind.txt", "w").write("x")\nreturn "csv" in sys.modules',
    );
    expect(writer.value).toBe(true);
    const reader = await run('import os, sys\nreturn [os.path.exists("/tmp/left-behind.txt"), "csv" in sys.modules]');
    expect(reader).toEqual({ logs: [], value: [false, false] });
  });

  it('does not let a task left running print into the next run', async () => {
    const first = await run(
      [
        'import asyncio',
        'async def later():',
        '    await asyncio.sleep(0.2)',
        '    print("from the first run")',
        'asyncio.ensure_future(later())',
        'return 1',
      ].join('\n'),
    );
    expect(first).toEqual({ logs: [], value: 1 });
    const second = await run('import asyncio\nawait asyncio.sleep(0.5)\nreturn 2');
    expect(second).toEqual({ logs: [], value: 2 });
  });

  it("sees none of the host's environment variables", async () => {
    const result = await run(
      'import os, js\nreturn [os.environ.get("CONCORD_PYODIDE_TEST_SECRET"), list(js.Object.keys(js.process.env))]',
    );
    // The worker process starts with an empty environment, so even a program reaching JavaScript finds nothing.
    expect(result).toEqual({ logs: [], value: [null, []] });
  });

  // Sockets are the sandbox's business (sandbox.test.ts); fetch is refused so Pyodide never downloads a package.
  it('refuses fetch', async () => {
    const result = await run('import js\nawait js.fetch("http://127.0.0.1:9/")\nreturn "fetched"');
    expect(result.error).toMatchObject({ kind: 'exception' });
    expect(result.error?.message).toContain('network access is disabled');
  });

  it('raises RecursionError for runaway recursion, and recovers', async () => {
    const result = await run('def down(n):\n    return down(n + 1)\nreturn down(0)');
    expect(result.error).toMatchObject({ kind: 'exception', name: 'RecursionError' });
    await expectCleanNextRun();
  });
});

describe('pyodide runtime: output floods stop inside the interpreter', () => {
  let runtime: PyodideRuntime;
  beforeAll(async () => {
    // The default limits, as a user gets them: 1,000,000 bytes of output, 512 MiB of WebAssembly memory.
    runtime = createPyodideRuntime({ timeoutMs: 60_000 }, { snapshots });
    await runtime.warm();
  });
  afterAll(async () => {
    await runtime?.dispose();
  });

  it.each([
    ['one printed line of 50,000,000 characters', 'print("x" * 50_000_000)\nreturn "printed"'],
    ['a line written to stdout without a newline', 'import sys\nsys.stdout.write("x" * 50_000_000)\nreturn "written"'],
    ['100,000,000 bytes written to fd 2', 'import os\nos.write(2, b"x" * 100_000_000)\nreturn "written"'],
    ['many fd writes', 'import os\nfor i in range(100):\n    os.write(1, b"x" * 1_000_000)\nreturn "written"'],
    ['a returned value of 200,000,000 characters', 'return "x" * 200_000_000'],
  ])('ends %s as output-limit, and the next run is clean', async (_, program) => {
    const result = await runtime.run({ program, bindings: fixtureTools() });
    expect(result.error?.kind, JSON.stringify(result).slice(0, 500)).toBe('output-limit');
    expect(result.logs).toEqual([]);
    expect(await runtime.run({ program: 'print("ok")\nreturn 1', bindings: fixtureTools() })).toEqual({
      logs: ['ok'],
      value: 1,
    });
  });
});
