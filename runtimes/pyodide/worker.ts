import { Buffer } from 'node:buffer';
import { Console } from 'node:console';
import { closeSync, createReadStream, constants as fsConstants, fstatSync, writeSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LineSplitter } from '../seam/lines.js';
import { preloadModuleScript } from './module-script.js';
import {
  type HostMessage,
  MAX_FRAME_BYTES,
  type PyodideBoot,
  SNAPSHOT_FD,
  SNAPSHOT_PRELOAD,
  type SnapshotUse,
  type WorkerMessage,
} from './protocol.js';

/**
 * The Pyodide worker process: boots one interpreter, then serves runs and compile requests from the host,
 * one JSON frame per line (the host's on stdin, ours on stdout). A program can reach this JavaScript, so
 * nothing here is a safeguard against it: the process itself is the sandbox (see sandbox.ts), and the host
 * kills it to stop a runaway program. This file and its imports are copied alone when the worker's user
 * cannot read them in place: import only node: builtins and the modules listed in staging.ts.
 */

// Descriptors the host inherited from its caller and so passed on (their numbers come as the first
// argument): closed before anything else, since a program reaches `fs.writeSync(fd)` through JavaScript and
// the permission model does not guard writes to a descriptor that is already open. SNAPSHOT_FD is the
// host's own channel here, whatever that number was in the host.
for (const fd of (process.argv[2] ?? '').split(',')) {
  if (/^[0-9]+$/.test(fd) && Number(fd) > SNAPSHOT_FD) {
    try {
      closeSync(Number(fd));
    } catch {
      // Not open here after all.
    }
  }
}

/**
 * The boot's memory snapshot channel (SNAPSHOT_FD): `received` is what the host sent on it before it ended
 * its side (a snapshot, or nothing); `close` sends ours, if any, and closes it. The boot closes it before the
 * interpreter is handed to anything of the host's, so no program ever holds it. The descriptor is read and written
 * with file calls: a socket opened on it is a network API, which Node 26's permission model refuses.
 */
const snapshotChannel = ((): { received: Promise<Buffer>; close(ours?: Uint8Array): Promise<void> } => {
  try {
    fstatSync(SNAPSHOT_FD);
  } catch {
    return { received: Promise.resolve(Buffer.alloc(0)), close: async () => {} };
  }
  let open = true;
  const received = new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    const stream = createReadStream('', { fd: SNAPSHOT_FD, autoClose: false });
    stream.on('data', (chunk) => void chunks.push(chunk as Buffer));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', () => resolve(Buffer.concat(chunks)));
  });
  return {
    received,
    close: async (ours) => {
      if (!open) return;
      open = false;
      try {
        for (let sent = 0; ours !== undefined && sent < ours.byteLength; ) sent += writeSync(SNAPSHOT_FD, ours, sent);
      } catch {
        // The host went: the snapshot is not kept, and nothing else depends on it.
      }
      try {
        closeSync(SNAPSHOT_FD);
      } catch {
        // Closed already.
      }
    },
  };
})();

type PyCallable = (...args: unknown[]) => unknown;
interface PyModule {
  install: PyCallable;
  warm_up: PyCallable;
  run: PyCallable;
  compile_sources: PyCallable;
}
interface PyodideApi {
  FS: { mkdirTree(path: string): void; writeFile(path: string, data: string): void };
  setStdout(options: { write(buffer: Uint8Array): number }): void;
  setStderr(options: { write(buffer: Uint8Array): number }): void;
  runPython(code: string): unknown;
  pyimport(name: string): PyModule;
  makeMemorySnapshot(): Uint8Array;
}

const GUEST_DIR = '/concord';

/** Sends a frame unless it is longer than the host accepts; says whether it went. */
function trySend(message: WorkerMessage): boolean {
  const frame = `${JSON.stringify(message)}\n`;
  if (Buffer.byteLength(frame, 'utf8') > MAX_FRAME_BYTES) return false;
  process.stdout.write(frame);
  return true;
}

function send(message: WorkerMessage): void {
  if (!trySend(message)) throw new Error(`a ${message.type} frame is longer than ${MAX_FRAME_BYTES} bytes`);
}

type WasmImports = Record<string, Record<string, unknown>>;

/** Size of the WebAssembly heap after its last growth: it never shrinks, so a big run leaves a big worker. */
let heapBytes = 0;

/**
 * Caps the WebAssembly heap: Emscripten grows memory through the `emscripten_resize_heap` import, and a
 * refusal there makes malloc fail, which Python reports as MemoryError. Must run before Pyodide loads.
 */
function capWasmMemory(limitBytes: number): void {
  // The `WebAssembly` global is not in this project's type libraries (no DOM lib): reach it untyped.
  const wasm = (
    globalThis as unknown as { WebAssembly: { instantiate: (source: unknown, imports?: WasmImports) => unknown } }
  ).WebAssembly;
  const instantiate = wasm.instantiate.bind(wasm);
  wasm.instantiate = (source: unknown, imports?: WasmImports) => {
    const env = imports?.env;
    const grow = env?.emscripten_resize_heap;
    if (env !== undefined && typeof grow === 'function') {
      env.emscripten_resize_heap = (requested: number) => {
        if (requested >>> 0 > limitBytes) return 0;
        const grown: unknown = grow(requested);
        if (grown) heapBytes = Math.max(heapBytes, requested >>> 0);
        return grown;
      };
    }
    const instance = instantiate(source, imports);
    // Pyodide only warns when instantiating fails (a snapshot too short for its memory, say) and then waits
    // forever: the boot in progress is told instead.
    Promise.resolve(instance).catch((error: unknown) =>
      instantiateFailed?.(error instanceof Error ? error : new Error(String(error))),
    );
    return instance;
  };
}

/** Set while a boot waits on Pyodide: fails it when the WebAssembly module cannot be instantiated. */
let instantiateFailed: ((error: Error) => void) | undefined;

/** `loading`, or the failure to instantiate the WebAssembly module if that comes first. */
async function unlessInstantiateFails<T>(loading: Promise<T>): Promise<T> {
  const failed = new Promise<never>((_, reject) => {
    instantiateFailed = reject;
  });
  try {
    return await Promise.race([loading, failed]);
  } finally {
    instantiateFailed = undefined;
  }
}

/** Pyodide loads everything from its package folder; it must never try the network for a missing file. */
function disableFetch(): void {
  globalThis.fetch = () => Promise.reject(new Error('concord: network access is disabled in the Pyodide runtime'));
}

/**
 * Pyodide's NODEFS reads the file-flag constants through the deprecated `process.binding`, which the
 * permission model refuses; the public constants are the same numbers.
 */
function provideConstantsBinding(): void {
  const constants = { fs: fsConstants, os: osConstants };
  (process as unknown as { binding(name: string): unknown }).binding = (name: string) => {
    if (name === 'constants') return constants;
    throw new Error(`process.binding(${JSON.stringify(name)}) is not available in the Pyodide worker`);
  };
}

/**
 * The interpreter: from the host's snapshot when it gave one that loads, else afresh (and, when the host asks,
 * snapshotted right after the standard modules are loaded, before anything of the host's is put in: a
 * snapshot may hold no JavaScript reference). A snapshot that fails to load costs only the time it took.
 */
async function loadInterpreter(data: PyodideBoot): Promise<{ pyodide: PyodideApi; snapshot: SnapshotUse }> {
  preloadModuleScript(data.packageDir);
  const entry = pathToFileURL(join(data.packageDir, 'pyodide.mjs')).href;
  const { loadPyodide } = (await import(entry)) as {
    loadPyodide(options: Record<string, unknown>): Promise<PyodideApi>;
  };
  const discard = (): void => {};
  const options = { indexURL: data.packageDir + '/', stdout: discard, stderr: discard };
  let rejected: string | undefined;
  const sent = await snapshotChannel.received;
  if (data.snapshotBytes !== undefined) {
    try {
      if (sent.length !== data.snapshotBytes)
        throw new Error(`it arrived with ${sent.length} of its ${data.snapshotBytes} bytes`);
      const pyodide = await unlessInstantiateFails(loadPyodide({ ...options, _loadSnapshot: sent }));
      if (
        pyodide.runPython(`import sys\nall(name in sys.modules for name in ${JSON.stringify(SNAPSHOT_PRELOAD)})`) !==
        true
      )
        throw new Error('it lacks the preloaded modules');
      return { pyodide, snapshot: 'loaded' };
    } catch (error) {
      rejected = error instanceof Error ? error.message : String(error);
    }
  }
  const make = data.makeSnapshot === true;
  const pyodide = await loadPyodide({ ...options, ...(make ? { _makeSnapshot: true } : {}) });
  if (!make) return { pyodide, snapshot: rejected === undefined ? 'none' : { rejected } };
  pyodide.runPython(SNAPSHOT_PRELOAD.map((name) => `import ${name}`).join('\n'));
  const snapshot = pyodide.makeMemorySnapshot();
  await snapshotChannel.close(snapshot);
  send({ type: 'snapshot', bytes: snapshot.byteLength });
  return { pyodide, snapshot: rejected === undefined ? 'made' : { rejected } };
}

async function boot(data: PyodideBoot): Promise<{ driver: PyModule; snapshot: SnapshotUse }> {
  capWasmMemory(data.memoryLimitBytes);
  disableFetch();
  provideConstantsBinding();
  // However it booted, the snapshot channel is closed before anything of the host's is put in.
  const { pyodide, snapshot } = await loadInterpreter(data).finally(() => snapshotChannel.close());
  // Bytes a program writes to its file descriptors 1 and 2 (os.write) are not shown, but they count
  // against the output cap, as in the CPython isolations. They are counted from the raw buffer, never
  // decoded: a flood must not become a JavaScript string.
  pyodide.setStdout({ write: writeDescriptor });
  pyodide.setStderr({ write: writeDescriptor });
  pyodide.FS.mkdirTree(GUEST_DIR);
  pyodide.FS.writeFile(`${GUEST_DIR}/concord_guest.py`, data.guestSource);
  pyodide.FS.writeFile(`${GUEST_DIR}/concord_pyodide.py`, data.driverSource);
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(GUEST_DIR)})`);
  return { driver: pyodide.pyimport('concord_pyodide'), snapshot };
}

/** The run in progress: tool calls waiting for the host, the output budget left, and whether it ran out. */
let active: { runId: number; outputLeft: number; exceeded: boolean; written: number } | undefined;
const waiting = new Map<number, (replyJson: string) => void>();
let nextCallId = 0;

function callHost(namespace: string, member: string, argsJson: string): Promise<string> {
  const run = active;
  if (run === undefined) return Promise.resolve(JSON.stringify({ error: 'no run is in progress' }));
  const callId = ++nextCallId;
  return new Promise((resolve) => {
    waiting.set(callId, resolve);
    if (!trySend({ type: 'call', runId: run.runId, callId, namespace, member, argsJson })) {
      waiting.delete(callId);
      resolve(
        JSON.stringify({
          error: `the arguments of ${namespace}.${member} are longer than ${MAX_FRAME_BYTES} bytes of JSON`,
        }),
      );
    }
  });
}

function writeLog(line: string): boolean {
  const run = active;
  if (run === undefined) return false;
  const size = Buffer.byteLength(line, 'utf8') + 1;
  if (size > run.outputLeft || !trySend({ type: 'log', runId: run.runId, line })) {
    run.outputLeft = 0;
    run.exceeded = true;
    return false;
  }
  run.outputLeft -= size;
  return true;
}

/** Pyodide's write handler for fds 1 and 2; throwing makes the program's os.write fail with an OSError. */
function writeDescriptor(buffer: Uint8Array): number {
  const run = active;
  if (run === undefined) return buffer.length;
  if (run.exceeded || buffer.length > run.outputLeft) {
    run.outputLeft = 0;
    run.exceeded = true;
    throw new Error('the output limit is reached');
  }
  run.outputLeft -= buffer.length;
  run.written += buffer.length;
  return buffer.length;
}

/** A result too long for one frame is over any output limit worth having: reported as output-limit. */
function sendDone(runId: number, outcomeJson: string, exceeded: boolean, written: number): void {
  // Bytes written to fds 1 and 2 never reached the interpreter's own count: the host adds them to its own.
  const outcome = JSON.parse(outcomeJson) as Record<string, unknown>;
  outcomeJson = JSON.stringify({ ...outcome, writtenBytes: written, ...(exceeded ? { outputExceeded: true } : {}) });
  if (trySend({ type: 'done', runId, outcomeJson, heapBytes })) return;
  const tooLong = { result: 'null', outputExceeded: true, taint: 'the result was too long to send' };
  send({ type: 'done', runId, outcomeJson: JSON.stringify(tooLong), heapBytes });
}

function fail(error: unknown): void {
  trySend({ type: 'fatal', message: error instanceof Error ? error.message : String(error) });
}

async function serve(data: PyodideBoot, queue: HostMessage[]): Promise<void> {
  const { driver, snapshot } = await boot(data);
  const versions = JSON.parse(driver.install(callHost, writeLog) as string) as { python: string; unicode: string };
  await driver.warm_up();
  let busy = false;
  const pump = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    for (let message = queue.shift(); message !== undefined; message = queue.shift()) {
      if (message.type === 'run') {
        const run = { runId: message.runId, outputLeft: message.outputLimitBytes, exceeded: false, written: 0 };
        active = run;
        try {
          const outcomeJson = (await driver.run(
            message.program,
            message.namespacesJson,
            message.outputLimitBytes,
          )) as string;
          sendDone(message.runId, outcomeJson, run.exceeded, run.written);
        } finally {
          active = undefined;
          waiting.clear();
        }
      } else if (message.type === 'compile') {
        const resultsJson = driver.compile_sources(message.sourcesJson) as string;
        send({ type: 'compiled', requestId: message.requestId, resultsJson });
      }
    }
    busy = false;
  };
  receive = (message) => {
    if (message.type === 'reply') {
      if (active?.runId !== message.runId) return;
      const resolve = waiting.get(message.callId);
      waiting.delete(message.callId);
      resolve?.(message.replyJson);
      return;
    }
    queue.push(message);
    pump().catch(fail);
  };
  send({ type: 'ready', python: versions.python, unicode: versions.unicode, snapshot });
  // Requests that arrived while the interpreter booted.
  pump().catch(fail);
}

/** Frames from the host; until the interpreter is up, everything after the boot frame waits in a queue. */
const early: HostMessage[] = [];
let receive = (message: HostMessage): void => {
  if (message.type === 'boot') {
    receive = (next) => void early.push(next);
    serve(message, early).catch(fail);
  }
};

// Whatever a program prints through the console goes to stderr, never into the frames on stdout.
globalThis.console = new Console(process.stderr, process.stderr);
// Node would print the source line of an uncaught error: in Pyodide's minified code, one line of megabytes.
// The host quotes the end of stderr when the process dies, so one short line says what happened instead.
process.on('uncaughtException', (error: unknown) => {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  process.stderr.write(`${text.slice(0, 1_000)}\n`, () => process.exit(1));
});
// The host is gone when its end of a pipe closes; nothing is left to serve.
process.stdin.on('end', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));
const hostLines = new LineSplitter(Number.POSITIVE_INFINITY);
process.stdin.on('data', (chunk: Buffer) => {
  for (const line of hostLines.push(chunk)) receive(JSON.parse(line) as HostMessage);
});
