import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import type { BindingFunction, BindingNamespace, JsonValue, RunResult } from '../seam/types.js';
import { processContainment } from './process-launcher.js';
import { type CpythonRuntime, createCpythonRuntime } from './runtime.js';
import { fixtureTools } from './test/fixtures.js';

/**
 * Hostile programs against other runs: what one `python-process` run can do to a concurrent run, to the
 * next run and to the host. These need concord to run as root (a uid of its own per run) and util-linux
 * `unshare` (namespaces); otherwise they skip, naming what is not isolated (and fail under CI, which has both).
 */

const containment = processContainment();

/** Tools for two concurrent runs: `report(args)` hands `args` to the test and waits until `release()`. */
function rendezvous(): { bindings: BindingNamespace[]; reported: Promise<JsonValue>; release: () => void } {
  let report!: (value: JsonValue) => void;
  let release!: () => void;
  const reported = new Promise<JsonValue>((resolve) => (report = resolve));
  const released = new Promise<JsonValue>((resolve) => (release = () => resolve(null)));
  const functions = new Map<string, BindingFunction>([
    [
      'report',
      async (args) => {
        report(args);
        return released;
      },
    ],
  ]);
  return {
    bindings: [{ name: 'tools', functions, errorClass: { name: 'ToolCallError', memberProperty: 'toolName' } }],
    reported,
    release,
  };
}

(await Host.with('root')).describe(`python-process runs cannot touch each other (${containment.reason})`, () => {
  let first: CpythonRuntime;
  let second: CpythonRuntime;
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
  });

  it("survives a concurrent run's kill(-1, SIGKILL)", async () => {
    const victim = rendezvous();
    const waiting = first.run({
      program: 'import os\nawait tools.report({"pid": os.getpid()})\nreturn "alive"',
      bindings: victim.bindings,
      timeoutMs: 20_000,
    });
    await victim.reported;
    // Never as root: kill(-1) from root would take down every process of the machine.
    const attack = await runOn(
      second,
      'import os, signal\nif os.getuid() == 0:\n    return "root"\nos.kill(-1, signal.SIGKILL)\nreturn "sent"',
    );
    victim.release();
    expect(attack.value).not.toBe('root');
    expect(await waiting).toEqual({ logs: [], value: 'alive' });
    // The attacker can only have reached its own processes; its server reports it as gone or done.
    expect(['sent', undefined]).toContain(attack.value);
  });

  it("cannot read a concurrent run's memory, environment or files through /proc", async () => {
    const victim = rendezvous();
    const waiting = first.run({
      program:
        'import os\nsecret = "concord-" + "secret-" + "value"\nopen("note.txt", "w").write(secret)\nawait tools.report({"pid": os.getpid(), "uid": os.getuid(), "cwd": os.getcwd()})\nreturn secret',
      bindings: victim.bindings,
      timeoutMs: 20_000,
    });
    const { pid, uid, cwd } = (await victim.reported) as { pid: number; uid: number; cwd: string };
    const attack = await runOn(
      second,
      [
        'import os',
        `pid, uid, cwd = ${pid}, ${uid}, ${JSON.stringify(cwd)}`,
        'outcomes = {}',
        'owners = set()',
        'for entry in os.listdir("/proc"):',
        '    try:',
        '        owners.add(os.stat("/proc/" + entry).st_uid)',
        '    except OSError:',
        '        pass',
        'outcomes["victim listed"] = uid in owners',
        // In a PID namespace of its own the victim's number may name one of the attacker's own processes.
        'theirs = uid in owners and os.stat("/proc/%d" % pid).st_uid == uid',
        'for what, path in [("mem", "/proc/%d/mem" % pid), ("environ", "/proc/%d/environ" % pid), ("note", cwd + "/note.txt")]:',
        '    if what != "note" and not theirs:',
        '        outcomes[what] = "not visible"',
        '        continue',
        '    try:',
        '        with open(path, "rb") as f:',
        '            data = f.read(1 << 20)',
        '        outcomes[what] = "read %d bytes" % len(data)',
        '    except OSError as error:',
        '        outcomes[what] = type(error).__name__',
        'try:',
        '    if not theirs:',
        '        raise PermissionError()',
        '    os.listdir("/proc/%d/cwd" % pid)',
        '    outcomes["cwd"] = "listed"',
        'except OSError as error:',
        '    outcomes["cwd"] = "not visible" if not theirs else type(error).__name__',
        'return outcomes',
      ].join('\n'),
    );
    victim.release();
    expect(await waiting).toEqual({ logs: [], value: 'concord-secret-value' });
    // With a PID namespace per server the victim is not even listed; without, the kernel refuses each read.
    const refused = containment.namespaces === undefined ? 'PermissionError' : 'not visible';
    expect(attack.value).toEqual({
      'victim listed': containment.namespaces === undefined,
      mem: refused,
      environ: refused,
      note: 'PermissionError',
      cwd: refused,
    });
  });

  it('leaves nothing in its temporary folder for the next run, and the folder goes with the runtime', async () => {
    const written = await runOn(
      first,
      'import os, tempfile\nopen(os.path.join(tempfile.gettempdir(), "left.txt"), "w").write("x")\nreturn os.getcwd()',
    );
    const place = written.value as string;
    expect(existsSync(place)).toBe(false);
    const next = await runOn(
      first,
      'import os\nreturn [os.getcwd() == ' + JSON.stringify(place) + ', os.listdir(".")]',
    );
    expect(next.value).toEqual([false, []]);
  });

  it('starts 16 threads while the host runs many processes of other accounts', async () => {
    // Before each run had an account of its own, the per-user process limit counted these too.
    const busy: ChildProcess[] = [];
    for (let i = 0; i < 80; i++) busy.push(spawn('sleep', ['60'], { uid: 65534, gid: 65534, stdio: 'ignore' }));
    try {
      const result = await runOn(
        first,
        'import threading\nbarrier = threading.Barrier(17)\nthreads = [threading.Thread(target=barrier.wait) for _ in range(16)]\nfor t in threads:\n    t.start()\nbarrier.wait()\nfor t in threads:\n    t.join()\nreturn len(threads)',
      );
      expect(result).toEqual({ logs: [], value: 16 });
    } finally {
      for (const child of busy) child.kill('SIGKILL');
    }
  });
});

(await Host.with('root', 'unshare')).describe('python-process runs have no network and no shared /tmp', () => {
  let runtime: CpythonRuntime;
  let server: Server;
  let port = 0;

  beforeAll(async () => {
    server = createServer((socket) => socket.end('reached\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    runtime = await createCpythonRuntime({ isolation: 'process', timeoutMs: 20_000 });
  });
  afterAll(async () => {
    await runtime?.dispose();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("cannot reach the host's loopback network", async () => {
    const result = await runtime.run({
      program: `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=2).recv(16)\n    return "reached"\nexcept OSError as error:\n    return type(error).__name__`,
      bindings: fixtureTools(),
    });
    expect(result.error).toBeUndefined();
    expect(result.value).not.toBe('reached');
  });

  it('cannot write to the shared /tmp, /var/tmp or /dev/shm', async () => {
    const result = await runtime.run({
      program: [
        'import os',
        'outcomes = {}',
        'for folder in ["/tmp", "/var/tmp", "/dev/shm"]:',
        '    if not os.path.isdir(folder):',
        '        continue',
        '    try:',
        '        open(os.path.join(folder, "concord-leak-%d" % os.getpid()), "w").write("x")',
        '        outcomes[folder] = "written"',
        '    except OSError as error:',
        '        outcomes[folder] = type(error).__name__',
        'return outcomes',
      ].join('\n'),
      bindings: fixtureTools(),
    });
    expect(Object.values(result.value as Record<string, string>).filter((outcome) => outcome === 'written')).toEqual(
      [],
    );
    expect((result.value as Record<string, string>)['/tmp']).toBe('OSError');
  });
});
