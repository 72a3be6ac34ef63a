import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtModule, packageRoot } from '../seam/package-root.js';
import type { RunResult } from '../seam/types.js';
import { runSnapshots } from '../test/pyodide-snapshots.js';
import { createPyodideRuntime, type PyodideRuntime } from './runtime.js';
import { dieWithHost, permissionFlag, sandboxNetwork, UNPRIVILEGED_IDS } from './sandbox.js';

// A program in Pyodide reaches JavaScript (`import js`, any function's `constructor`, dynamic import), so
// the boundary is the worker process. These programs try to get out of it by every route a program has.
// The temp files are readable and writable by every user: only the permission model stands in the way.

const SECRET_NAME = 'CONCORD_PYODIDE_SANDBOX_SECRET';

/** Python that tries each JavaScript route in `attempts` and returns `{route: "allowed: …" | "refused: …"}`. */
function probe(attempts: string[]): string {
  return [
    'import js, pyodide_js',
    'from pyodide.ffi import to_js',
    'out = {}',
    'async def attempt(name, action):',
    '    try:',
    '        value = action()',
    '        if hasattr(value, "then"):',
    '            value = await value',
    '        out[name] = "allowed: " + str(value)',
    '    except BaseException as error:',
    '        out[name] = "refused: " + (str(error).strip().splitlines() or [type(error).__name__])[-1]',
    ...attempts,
    'return out',
  ].join('\n');
}

/** The permission model's refusal; Node 24 and later add which flag would grant it. */
const DENIED = expect.stringMatching(
  /^refused: Error: Access to this API has been restricted(?:\. Use --allow-[a-z-]+ to manage permissions\.)?$/,
);

describe('pyodide runtime: the worker process is a sandbox', () => {
  let runtime: PyodideRuntime;
  let dir: string;
  let secretFile: string;
  const run = (program: string, timeoutMs?: number): Promise<RunResult> =>
    runtime.run({ program, bindings: [], ...(timeoutMs === undefined ? {} : { timeoutMs }) });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'concord-pyodide-sandbox-'));
    await chmod(dir, 0o777);
    secretFile = join(dir, 'secret.txt');
    await writeFile(secretFile, 'host secret\n', { mode: 0o666 });
    await chmod(secretFile, 0o666);
    process.env[SECRET_NAME] = 'do-not-leak';
    // Every worker here (the replacements too) boots from the run's memory snapshot: the sandbox is the worker
    // process's, however its interpreter booted.
    runtime = createPyodideRuntime({ timeoutMs: 20_000 }, { snapshots: runSnapshots() });
    await runtime.warm();
  });
  afterAll(async () => {
    delete process.env[SECRET_NAME];
    await runtime?.dispose();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('cannot read host files, however the program reaches JavaScript', async () => {
    const target = JSON.stringify(secretFile);
    const result = await run(
      probe([
        `await attempt("getBuiltinModule", lambda: js.process.getBuiltinModule("fs").readFileSync(${target}, "utf8"))`,
        `await attempt("Function", lambda: js.setTimeout.constructor("p", "return process.getBuiltinModule('fs').readFileSync(p, 'utf8')")(${target}))`,
        `await attempt("import", lambda: js.eval("(p) => import('node:fs/promises').then((fs) => fs.readFile(p, 'utf8'))")(${target}))`,
        'await attempt("hostname", lambda: js.process.getBuiltinModule("fs").readFileSync("/etc/hostname", "utf8"))',
        `await attempt("checkout", lambda: js.process.getBuiltinModule("fs").readFileSync(${JSON.stringify(join(packageRoot(), 'package.json'))}, "utf8"))`,
        'def nodefs():',
        '    pyodide_js.FS.mkdirTree("/mnt/host")',
        `    pyodide_js.FS.mount(pyodide_js.FS.filesystems.NODEFS, to_js({"root": ${JSON.stringify(dir)}}, dict_converter=js.Object.fromEntries), "/mnt/host")`,
        '    return open("/mnt/host/secret.txt").read()',
        'await attempt("nodefs", nodefs)',
      ]),
    );
    expect(result.error).toBeUndefined();
    const outcomes = result.value as Record<string, string>;
    expect(outcomes).toEqual({
      getBuiltinModule: DENIED,
      Function: DENIED,
      import: DENIED,
      hostname: DENIED,
      checkout: DENIED,
      nodefs: expect.stringMatching(/^refused: /),
    });
  });

  it('cannot write files', async () => {
    const target = JSON.stringify(join(dir, 'written.txt'));
    const result = await run(
      probe([
        `await attempt("writeFileSync", lambda: js.process.getBuiltinModule("fs").writeFileSync(${target}, "x"))`,
        `await attempt("promises", lambda: js.process.getBuiltinModule("fs").promises.writeFile(${target}, "x"))`,
      ]),
    );
    expect(result.value).toEqual({ writeFileSync: DENIED, promises: DENIED });
    expect(await readdir(dir)).toEqual(['secret.txt']);
  });

  it('cannot start processes, threads, addons or a debugger', async () => {
    const result = await run(
      probe([
        'await attempt("spawnSync", lambda: js.process.getBuiltinModule("child_process").spawnSync("/bin/sh", to_js(["-c", "id"])).stdout)',
        'await attempt("execSync", lambda: js.process.getBuiltinModule("child_process").execSync("id"))',
        `await attempt("worker", lambda: js.eval("new (process.getBuiltinModule('worker_threads').Worker)('1', { eval: true })"))`,
        'await attempt("inspector", lambda: js.process.getBuiltinModule("inspector").open())',
        'await attempt("dlopen", lambda: js.process.dlopen(js.Object.new(), "/nonexistent.node"))',
      ]),
    );
    const outcomes = result.value as Record<string, string>;
    expect(outcomes).toMatchObject({ spawnSync: DENIED, execSync: DENIED, worker: DENIED, inspector: DENIED });
    expect(outcomes.dlopen).toMatch(/^refused: .*addons is disabled/);
  });

  it("sees nothing of the host's environment", async () => {
    const result = await run(
      probe([
        'import os',
        `await attempt("os.environ", lambda: os.environ.get(${JSON.stringify(SECRET_NAME)}))`,
        'await attempt("process.env", lambda: list(js.Object.keys(js.process.env)))',
        'await attempt("parent environ", lambda: js.process.getBuiltinModule("fs").readFileSync("/proc/" + str(js.process.ppid) + "/environ", "latin1"))',
        'await attempt("own environ", lambda: js.process.getBuiltinModule("fs").readFileSync("/proc/self/environ", "latin1"))',
        'await attempt("cwd", lambda: js.process.cwd())',
      ]),
    );
    expect(result.value).toEqual({
      'os.environ': 'allowed: None',
      'process.env': 'allowed: []',
      'parent environ': DENIED,
      'own environ': DENIED,
      cwd: 'allowed: /',
    });
  });

  it('runs as the unprivileged user when the host is root', async ({ skip }) => {
    if (process.getuid?.() !== 0) skip('the host is not root: the worker keeps its user');
    const result = await run(
      'import js\nreturn [js.process.getuid(), js.process.getgid(), list(js.process.getgroups())]',
    );
    expect(result.value).toEqual([UNPRIVILEGED_IDS.uid, UNPRIVILEGED_IDS.gid, [UNPRIVILEGED_IDS.gid]]);
  });

  it('cannot reach the network, not even the host on loopback, where a namespace can be made', async ({ skip }) => {
    const network = sandboxNetwork();
    if (!network.isolated) skip(`no network namespace for the worker: ${network.reason}`);
    const server = createServer((socket) => socket.destroy());
    let connections = 0;
    server.on('connection', () => void connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const connect = `(port) => new Promise((resolve, reject) => { const socket = process.getBuiltinModule('net').connect(port, '127.0.0.1', () => { socket.destroy(); resolve('connected'); }); socket.on('error', reject); })`;
      const result = await run(
        probe([`await attempt("loopback", lambda: js.eval(${JSON.stringify(connect)})(${port}))`]),
      );
      // Node 26 and later also refuse the connection under the permission model (ERR_ACCESS_DENIED).
      expect(result.value).toEqual({
        loopback: expect.stringMatching(/^refused: .*(ENETUNREACH|ECONNREFUSED|ERR_ACCESS_DENIED)/),
      });
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('kills the worker process on timeout; the next run gets a fresh one', async () => {
    const before = await run('import js\nreturn js.process.pid');
    const pid = before.value as number;
    expect(Number.isSafeInteger(pid)).toBe(true);
    const timedOut = await run('while True:\n    pass', 2_000);
    expect(timedOut.error?.kind).toBe('timeout');
    const after = await run('import js\nreturn js.process.pid');
    expect(after.value).not.toBe(pid);
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });

  it('drops junk written to the channel and kills a worker that sends an endless line', async () => {
    const junk = await run(
      [
        'import js',
        'js.process.stdout.write("not json\\n[1, 2]\\n{\\"type\\": \\"done\\", \\"runId\\": \\"x\\"}\\n{\\"type\\": \\"log\\"}\\n")',
        'return "still here"',
      ].join('\n'),
    );
    expect(junk).toEqual({ logs: [], value: 'still here' });
    const endless = await run('import js\njs.eval("process.stdout.write(Buffer.alloc(65 << 20, 120))")\nreturn "sent"');
    expect(endless.error).toMatchObject({ kind: 'worker-exit', message: expect.stringContaining('frame longer than') });
    expect(await run('return sorted(globals())')).toEqual({ logs: [], value: ['__builtins__'] });
  });
});

/** Whether a process is gone: no such pid, or only its exit status is left (a zombie nobody has reaped yet). */
function gone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .startsWith('Z');
  } catch {
    return true;
  }
}

describe('pyodide worker process lifetime', () => {
  it('dies with a host that is killed outright, even in the middle of a run', async ({ skip }) => {
    if (dieWithHost().length === 0) skip('util-linux setpriv cannot set a parent-death signal here');
    const index = JSON.stringify(builtModule('runtimes/pyodide/index.ts'));
    const script = [
      `const { createPyodideRuntime } = await import(${index});`,
      'const runtime = createPyodideRuntime();',
      // The worker is busy when the host dies: it cannot notice its closed stdin, so only the kernel stops it.
      'const started = async (pid) => { console.log(JSON.stringify(pid)); return null; };',
      "const bindings = [{ name: 'tools', functions: new Map([['started', started]]) }];",
      "void runtime.run({ program: 'import js\\nawait tools.started(js.process.pid)\\nwhile True:\\n    pass', bindings, timeoutMs: 600000 });",
    ].join('\n');
    const host = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      host.stdout.setEncoding('utf8').once('data', (text: string) => resolve(text.trim()));
      host.once('exit', (code) => reject(new Error(`the host exited early with code ${code}`)));
    });
    const pid = JSON.parse(line) as number;
    try {
      expect(gone(pid)).toBe(false);
      host.kill('SIGKILL');
      for (let tries = 0; tries < 100 && !gone(pid); tries++) await sleep(100);
      expect(gone(pid)).toBe(true);
    } finally {
      // A worker that outlived its host would spin forever.
      if (!gone(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});

describe('the permission flag', () => {
  it('is spelled as the running Node accepts it: only the old spelling on 20, the new one from 22 on', () => {
    expect(permissionFlag(new Set(['--experimental-permission']))).toBe('--experimental-permission');
    expect(permissionFlag(new Set(['--experimental-permission', '--permission']))).toBe('--permission');
    expect(permissionFlag(new Set(['--permission']))).toBe('--permission');
    expect(process.allowedNodeEnvironmentFlags.has(permissionFlag())).toBe(true);
  });
});
