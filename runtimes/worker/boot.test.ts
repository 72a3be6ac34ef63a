import { afterEach, describe, expect, it } from 'vitest';
import type { CodeRuntime } from '../seam/types.js';
import { readGuestFrame } from './protocol.js';
import { createWorkerRuntime } from './runtime.js';
import { spawnGuestWorker } from './worker-pool.js';

// A run's time budget covers the program, not the wait for a worker to boot. Slow boots (seconds, on a
// loaded machine) are made real here by holding back the end of every worker's boot.

let runtime: CodeRuntime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

describe('booting workers and the time budget', () => {
  it('a worker reports ready once booted, and the frame is read back', async () => {
    const worker = spawnGuestWorker(64);
    try {
      const first = await new Promise<unknown>((resolve) => worker.once('message', resolve));
      expect(readGuestFrame(first)).toEqual({ type: 'ready' });
    } finally {
      await worker.terminate();
    }
  });

  it('after timeouts, a small budget still suffices on a replacement worker that is slow to boot', async () => {
    runtime = createWorkerRuntime({ heapMb: 64 }, { bootDelayMs: 1_000 });
    const spin = (): Promise<unknown> => runtime!.run({ program: 'for (;;) {}', bindings: [], timeoutMs: 300 });
    // The first timeout is served by a worker booted on demand, the second by the first spare; the third
    // run gets the spare booted when the second began, still booting when the run arrives.
    expect(await spin()).toMatchObject({ error: { kind: 'timeout' } });
    expect(await spin()).toMatchObject({ error: { kind: 'timeout' } });
    const trivial = await runtime.run({ program: 'return "done";', bindings: [], timeoutMs: 300 });
    expect(trivial).toEqual({ value: 'done', logs: [] });
  });

  it('a worker that never finishes booting ends the run in worker-exit instead of hanging it', async () => {
    runtime = createWorkerRuntime({ heapMb: 64 }, { bootDelayMs: 600_000, bootTimeoutMs: 300 });
    const result = await runtime.run({ program: 'return 1;', bindings: [], timeoutMs: 60_000 });
    expect(result).toEqual({
      logs: [],
      error: {
        kind: 'worker-exit',
        message: 'the worker did not finish booting within 300 ms, so the program never ran',
      },
    });
  });
});
