import { afterAll, beforeAll, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { describeConformance } from '../seam/conformance.js';
import type { RunResult } from '../seam/types.js';
import { CPYTHON_IMAGES } from './images.js';
import { type CpythonRuntime, createCpythonRuntime } from './runtime.js';
import { fixtureTools, PEERS_PROGRAM, PEERS_PROGRAM_ANSWERS } from './test/fixtures.js';

const docker = await Host.with('docker');

// Each image's suite has a container of its own, so the four run side by side: one's waits for a budget to
// pass overlap the others' runs.
docker.describe('cpython containers', () => {
  for (const image of CPYTHON_IMAGES) {
    describeConformance(
      `cpython ${image.python} container`,
      (limits) => createCpythonRuntime({ isolation: 'container', image: image.tag, fallback: 'error', ...limits }),
      {
        concurrent: true,
      },
    );
  }
});

const floor = CPYTHON_IMAGES[0]!;

docker.describe(`cpython container isolation: hostile programs (${floor.tag})`, () => {
  let runtime: CpythonRuntime;
  const run = (program: string, timeoutMs?: number): Promise<RunResult> =>
    runtime.run({ program, bindings: fixtureTools(), ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  const expectCleanNextRun = async (): Promise<void> => {
    const result = await run('return [await tools.echo({"n": 1}), sorted(globals())]');
    expect(result).toEqual({ logs: [], value: [{ n: 1 }, ['ToolCallError', '__builtins__', 'tools']] });
  };

  beforeAll(async () => {
    process.env.CONCORD_TEST_SECRET = 'do-not-leak';
    runtime = await createCpythonRuntime({
      isolation: 'container',
      image: floor.tag,
      fallback: 'error',
      memoryMb: 256,
    });
  });
  afterAll(async () => {
    delete process.env.CONCORD_TEST_SECRET;
    await runtime?.dispose();
  });

  it('runs in a container as a user without privileges', async () => {
    expect(runtime.isolation).toBe('container');
    const ids = await run('import os\nreturn [os.getuid(), os.getgid()]');
    expect(ids.value).toEqual([65534, 65534]);
  });

  it('speaks to the host over the mounted run channel, not the exec stream', async () => {
    const result = await run(PEERS_PROGRAM);
    // A Unix socket's peer name is the address the host bound, whatever path the container connected to.
    const channel = expect.stringMatching(/\/concord-channel-[^/]+\/run\.sock$/);
    expect(result).toEqual({ logs: ['calling'], value: [[channel], PEERS_PROGRAM_ANSWERS] });
  });

  it('has no network', async () => {
    const result = await run('import socket\nsocket.create_connection(("1.1.1.1", 53), timeout=2)');
    expect(result.error).toMatchObject({ kind: 'exception', name: 'OSError' });
    await expectCleanNextRun();
  });

  it('has a read-only root and a writable /tmp', async () => {
    const result = await run(
      'import os\ntry:\n    open("/opt/x", "w")\n    root = "writable"\nexcept OSError:\n    root = "read-only"\nopen("/tmp/x", "w").write("ok")\nreturn root',
    );
    expect(result.value).toBe('read-only');
  });

  it('gives each run a fresh temporary folder, and leaves nothing in /tmp for the next run', async () => {
    const first = await run(
      'import os, tempfile\nopen("/tmp/left.txt", "w").write("x")\nopen(os.path.join(tempfile.gettempdir(), "mine.txt"), "w").write("y")\nreturn os.getcwd()',
    );
    const place = first.value as string;
    expect(place).toMatch(/^\/tmp\/run-\d+-\d+$/);
    const second = await run(
      'import os\nreturn [os.getcwd(), os.environ.get("TMPDIR"), sorted(os.listdir("/tmp")), os.listdir(".")]',
    );
    const [cwd, tmpdir, inTmp, inCwd] = second.value as [string, string, string[], string[]];
    expect(cwd).not.toBe(place);
    expect(tmpdir).toBe(cwd);
    expect(inTmp).toEqual([cwd.slice('/tmp/'.length)]);
    expect(inCwd).toEqual([]);
  });

  it('shows the program nothing of the host environment', async () => {
    const result = await run('import os\nreturn dict(os.environ)');
    expect(JSON.stringify(result.value)).not.toContain('do-not-leak');
    expect(Object.keys(result.value as object)).not.toContain('CONCORD_TEST_SECRET');
  });

  it('contains a fork bomb within the pids limit', async () => {
    const bomb = 'import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass';
    expect((await run(bomb, 2_000)).error?.kind).toBe('timeout');
    await expectCleanNextRun();
  });

  it('ends a memory bomb as a MemoryError', async () => {
    const result = await run('hoard = []\nwhile True:\n    hoard.append(bytearray(16 * 1024 * 1024))');
    expect(result.error).toMatchObject({ kind: 'exception', name: 'MemoryError' });
    await expectCleanNextRun();
  });

  it('ends os._exit and a closed channel with worker-exit', async () => {
    expect((await run('import os\nos._exit(4)')).error?.kind).toBe('worker-exit');
    const closed = await run(
      'import os\nfor fd in range(3, 256):\n    try:\n        os.close(fd)\n    except OSError:\n        pass\nreturn 1',
    );
    expect(closed.error?.kind).toBe('worker-exit');
    await expectCleanNextRun();
  });

  it('starts a new guest server when the program kills every process it can', async () => {
    const result = await run('import os, signal\nos.kill(-1, signal.SIGKILL)');
    expect(result.error?.kind).toBe('worker-exit');
    await expectCleanNextRun();
  });
});
