import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { describeConformance } from '../seam/conformance.js';
import type { RunResult } from '../seam/types.js';
import { processContainment } from './process-launcher.js';
import { type CpythonRuntime, createCpythonRuntime } from './runtime.js';
import { fixtureTools } from './test/fixtures.js';

describeConformance('cpython process', (limits) => createCpythonRuntime({ isolation: 'process', ...limits }));

const containment = processContainment();
const asRoot = await Host.with('root');

describe('cpython process isolation: hostile programs', () => {
  let runtime: CpythonRuntime;
  const run = (program: string, timeoutMs?: number): Promise<RunResult> =>
    runtime.run({ program, bindings: fixtureTools(), ...(timeoutMs === undefined ? {} : { timeoutMs }) });

  /** The host is up and the next run starts from scratch. */
  const expectCleanNextRun = async (): Promise<void> => {
    const result = await run('import os\nreturn [await tools.echo({"n": 1}), sorted(globals())]');
    expect(result).toEqual({ logs: [], value: [{ n: 1 }, ['ToolCallError', '__builtins__', 'tools']] });
  };

  beforeAll(async () => {
    process.env.CONCORD_TEST_SECRET = 'do-not-leak';
    runtime = await createCpythonRuntime({
      isolation: 'process',
      timeoutMs: 20_000,
      memoryMb: 256,
      outputLimitBytes: 100_000,
    });
  });
  afterAll(async () => {
    delete process.env.CONCORD_TEST_SECRET;
    await runtime?.dispose();
  });

  it('binds exactly tools and ToolCallError; SDK TypedDicts are not there', async () => {
    expect((await run('return sorted(globals())')).value).toEqual(['ToolCallError', '__builtins__', 'tools']);
    const typedDict = await run('args: EchoArgs = {"n": 1}\nreturn await tools.echo(EchoArgs(n=1))');
    expect(typedDict.error).toMatchObject({ kind: 'exception', name: 'NameError' });
  });

  it('reports tracebacks with the line numbers of the program', async () => {
    const result = await run('x = 1\n\nraise ValueError("third line")');
    expect(result.error).toEqual({
      kind: 'exception',
      name: 'ValueError',
      message: 'Traceback (most recent call last):\n  File "<program>", line 3, in program\nValueError: third line',
    });
  });

  it('ends a memory bomb as a MemoryError', async () => {
    const result = await run('hoard = []\nwhile True:\n    hoard.append(bytearray(16 * 1024 * 1024))');
    expect(result.error).toMatchObject({ kind: 'exception', name: 'MemoryError' });
    await expectCleanNextRun();
  });

  asRoot.it(`contains a fork bomb (${containment.reason})`, {}, async () => {
    const bomb = 'import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass';
    expect((await run(bomb, 2_000)).error?.kind).toBe('timeout');
    // Leftover bomb processes would still count against the process limit and make this fork fail.
    const forked = await run(
      'import os\npid = os.fork()\nif pid == 0:\n    os._exit(0)\nos.waitpid(pid, 0)\nreturn "forked"',
    );
    expect(forked.value).toBe('forked');
    await expectCleanNextRun();
  });

  it('drops junk and forged frames written to every descriptor and to sys.__stdout__', async () => {
    const result = await run(
      [
        'import os, sys',
        // A result frame the program writes itself is no more than a return; frames claiming what only the
        // host or the server may say (a run's end, a timeout) must be dropped.
        'forged = b\'{"type":"ended","status":"exit 0"}\\n{"type":"result","error":{"kind":"timeout","message":"forged"}}\\n\'',
        'forged += b\'{"type":"call","call":"x"}\\n{"type":"ready","python":"9"}\\nnot json\\n\\x00\\xff\\n[1]\\n{"unterminated\\n\'',
        'for fd in range(0, 64):',
        '    try:',
        '        os.write(fd, forged)',
        '    except OSError:',
        '        pass',
        'sys.__stdout__.write("junk\\n")',
        'sys.__stdout__.flush()',
        'print("printed")',
        'return await tools.echo("genuine")',
      ].join('\n'),
    );
    expect(result).toEqual({ logs: ['printed'], value: 'genuine' });
    await expectCleanNextRun();
  });

  it('ends huge output with output-limit, keeping the lines before the cap', async () => {
    const result = await run('while True:\n    print("y" * 1000)');
    expect(result.error?.kind).toBe('output-limit');
    expect(result.logs.length).toBeGreaterThan(0);
    expect(result.logs.length).toBeLessThanOrEqual(100);
    await expectCleanNextRun();
  });

  it('ends a non-JSON return with invalid-output', async () => {
    for (const value of ['object()', 'float("inf")', '{1: "int key"}', '2 ** 64']) {
      expect((await run(`return ${value}`)).error?.kind, value).toBe('invalid-output');
    }
    await expectCleanNextRun();
  });

  it('reports sys.exit as an exception and os._exit as worker-exit', async () => {
    expect((await run('import sys\nsys.exit(3)')).error).toMatchObject({ kind: 'exception', name: 'SystemExit' });
    expect((await run('import os\nos._exit(4)')).error).toMatchObject({ kind: 'worker-exit' });
    await expectCleanNextRun();
  });

  it('ends a program that closes its channel with worker-exit', async () => {
    const result = await run(
      'import os\nfor fd in range(3, 256):\n    try:\n        os.close(fd)\n    except OSError:\n        pass\nreturn await tools.echo(1)',
    );
    expect(result.error?.kind).toBe('worker-exit');
    await expectCleanNextRun();
  });

  it('shows the program none of the host environment', async () => {
    const result = await run('import os\nreturn [dict(os.environ), os.getcwd()]');
    const [environment, cwd] = result.value as [Record<string, string>, string];
    // CPython itself sets LC_CTYPE when the environment names no locale (PEP 538); the run's own scratch
    // folder is its working directory, TMPDIR and HOME; nothing else is there.
    expect(environment).toEqual({ LC_CTYPE: 'C.UTF-8', TMPDIR: cwd, HOME: cwd });
    expect(cwd).toMatch(/\/concord-runs-[^/]+\/run-\d+-\d+$/);
  });

  it('forgets monkey-patched builtins and modules after the run', async () => {
    const patched = await run('import builtins, json\nbuiltins.len = lambda x: 42\njson.dumps = None\nreturn len([])');
    expect(patched.value).toBe(42);
    expect((await run('import json\nreturn [len([1]), json.dumps(1)]')).value).toEqual([1, '1']);
  });

  asRoot.it('runs each program under a uid of its own from the reserved range', {}, async () => {
    const ids = (await run('import os\nreturn [os.getuid(), os.getgid(), os.getgroups()]')).value as [
      number,
      number,
      number[],
    ];
    const again = (await run('import os\nreturn os.getuid()')).value as number;
    expect(ids[0]).toBeGreaterThanOrEqual(containment.runUids!.first);
    expect(ids[0]).toBeLessThanOrEqual(containment.runUids!.last);
    expect(ids.slice(1)).toEqual([ids[0], []]);
    expect(again).not.toBe(ids[0]);
  });

  it('does not trust a result sent after the program killed the guest server', async () => {
    const result = await run('import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nreturn "survived"');
    // With a uid of its own, a run cannot signal the server at all.
    if (containment.runUids === undefined) expect(result.error?.kind).toBe('worker-exit');
    else expect(result.error).toMatchObject({ kind: 'exception', name: 'PermissionError' });
    await expectCleanNextRun();
  });

  it('keeps running after the program kills its own process group', async () => {
    expect((await run('import os, signal\nos.killpg(0, signal.SIGKILL)')).error?.kind).toBe('worker-exit');
    await expectCleanNextRun();
  });
});

describe('cpython process isolation: starting early', () => {
  it('starts its guest server on start(), before any run, and the first run uses it', { timeout: 60_000 }, async () => {
    const runtime = await createCpythonRuntime({ isolation: 'process' });
    try {
      expect(runtime.pythonVersion).toBeUndefined();
      await runtime.start!();
      // Only a running server reports the interpreter's version.
      expect(runtime.pythonVersion).toMatch(/^3\.\d+\.\d+$/);
      expect(await runtime.run({ program: 'return sorted(globals())', bindings: fixtureTools() })).toEqual({
        logs: [],
        value: ['ToolCallError', '__builtins__', 'tools'],
      });
    } finally {
      await runtime.dispose();
    }
  });
});
