import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import type { JsonValue, RunResult } from '../seam/types.js';
import { type CpythonRuntime, createCpythonRuntime } from './runtime.js';
import { fixtureTools } from './test/fixtures.js';

/**
 * What `python-process` runs could share through the kernel rather than the file system: SysV IPC objects
 * (shared memory, message queues, semaphores) and the process list. As root each guest server has IPC,
 * PID and mount namespaces of its own, and each run a fresh IPC namespace.
 */

/** Python with `libc` bound and `IPC_CREAT` defined, for SysV IPC calls through ctypes. */
const IPC_PRELUDE = [
  'import ctypes, os',
  'libc = ctypes.CDLL(None, use_errno=True)',
  'libc.shmat.restype = ctypes.c_void_p',
  'libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]',
  'IPC_CREAT = 0o1000',
  'SHM_RDONLY = 0o10000',
].join('\n');

/** Creates a shared memory segment holding `secret`, a message queue and a semaphore set, all under `key`. */
function createObjects(key: number, secret: string): string {
  return [
    IPC_PRELUDE,
    `key, secret = ${key}, ${JSON.stringify(secret)}.encode()`,
    'shm = libc.shmget(key, 4096, IPC_CREAT | 0o666)',
    'if shm < 0:',
    '    return "shmget failed: " + os.strerror(ctypes.get_errno())',
    'address = libc.shmat(shm, None, 0)',
    'ctypes.memmove(address, secret, len(secret))',
    'libc.shmdt(ctypes.c_void_p(address))',
    'queue = libc.msgget(key, IPC_CREAT | 0o666)',
    'semaphores = libc.semget(key, 1, IPC_CREAT | 0o666)',
    'return [shm >= 0, queue >= 0, semaphores >= 0]',
  ].join('\n');
}

/** Looks for the objects under `key` and reads the segment: what another run could reach. */
function lookForObjects(key: number, length: number): string {
  return [
    IPC_PRELUDE,
    `key = ${key}`,
    'found = {}',
    'shm = libc.shmget(key, 0, 0)',
    'if shm >= 0:',
    '    address = libc.shmat(shm, None, SHM_RDONLY)',
    `    found["shm"] = ctypes.string_at(address, ${length}).decode() if address not in (None, ctypes.c_void_p(-1).value) else "attach refused"`,
    'else:',
    '    found["shm"] = None',
    'found["queue"] = libc.msgget(key, 0) >= 0',
    'found["semaphores"] = libc.semget(key, 0, 0) >= 0',
    'with open("/proc/sysvipc/shm") as listing:',
    '    found["segments listed"] = len(listing.read().splitlines()) - 1',
    'return found',
  ].join('\n');
}

(await Host.with('root', 'unshare')).describe('python-process runs share no SysV IPC object', () => {
  let first: CpythonRuntime;
  let second: CpythonRuntime;
  const key = randomInt(0x10000, 0x7fffffff);
  const secret = `concord-ipc-secret-${key}`;
  const runOn = (runtime: CpythonRuntime, program: string): Promise<RunResult> =>
    runtime.run({ program, bindings: fixtureTools(), timeoutMs: 20_000 });

  beforeAll(async () => {
    [first, second] = await Promise.all([
      createCpythonRuntime({ isolation: 'process', timeoutMs: 20_000 }),
      createCpythonRuntime({ isolation: 'process', timeoutMs: 20_000 }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([first?.dispose(), second?.dispose()]);
    // Where runs share the host's IPC namespace, what they created is still there: remove it.
    spawnSync('ipcrm', ['-M', String(key), '-Q', String(key), '-S', String(key)], { stdio: 'ignore' });
  });

  it('creates shared memory, a queue and semaphores inside a run', async () => {
    expect(await runOn(first, createObjects(key, secret))).toEqual({ logs: [], value: [true, true, true] });
  });

  it('leaves none of them to a later run of another server (another uid), which cannot read the secret', async () => {
    await runOn(first, createObjects(key, secret));
    const seen = await runOn(second, lookForObjects(key, secret.length));
    expect(seen).toEqual({ logs: [], value: { shm: null, queue: false, semaphores: false, 'segments listed': 0 } });
  });

  it('leaves none of them to the next run of the same server', async () => {
    await runOn(first, createObjects(key, secret));
    const seen = await runOn(first, lookForObjects(key, secret.length));
    expect(seen).toEqual({ logs: [], value: { shm: null, queue: false, semaphores: false, 'segments listed': 0 } });
  });

  it('cannot see them from a concurrent run while they exist', async () => {
    let created!: () => void;
    let release!: (value: JsonValue) => void;
    const holderReady = new Promise<void>((resolve) => (created = resolve));
    const released = new Promise<JsonValue>((resolve) => (release = resolve));
    const functions = new Map([['created', async (): Promise<JsonValue> => (created(), released)]]);
    const holding = [
      createObjects(key, secret).replace(/\nreturn .*$/, ''),
      'await tools.created({})',
      'return "held"',
    ].join('\n');
    const held = first.run({ program: holding, bindings: [{ name: 'tools', functions }], timeoutMs: 20_000 });
    await holderReady;
    const seen = await runOn(second, lookForObjects(key, secret.length));
    release(null);
    expect(seen.value).toEqual({ shm: null, queue: false, semaphores: false, 'segments listed': 0 });
    expect(await held).toEqual({ logs: [], value: 'held' });
  });

  it("sees only its own server's processes, not the host's", async () => {
    const seen = await runOn(
      first,
      'import os\nreturn [os.getpid() < 100, len([p for p in os.listdir("/proc") if p.isdigit()]) < 10, os.path.exists("/proc/%d" % ' +
        process.pid +
        ')]',
    );
    expect(seen).toEqual({ logs: [], value: [true, true, false] });
  });
});
