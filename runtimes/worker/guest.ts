import { type Context, constants, createContext, Script } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { runMessages } from '../seam/messages.js';
import { logLineBytes, valueBytes } from '../seam/output.js';
import { GUEST_ERROR_KINDS } from '../seam/result.js';
import type { GuestFailureKind, GuestFrame, HostFrame } from './protocol.js';
import { realmBootstrap } from './realm-bootstrap.js';
import { PROGRAM_FILE } from './strip-types.js';

/**
 * Worker entry: serves many runs, one at a time, each in a fresh `vm` context (a realm of its own), so
 * nothing a program does (globals, patched builtins, prototypes) is visible to the next program.
 *
 * The program's realm holds only objects built inside it by realm-bootstrap.ts. The one function from
 * this realm it is given, the bridge, is per run: once the run ends it answers "closed" to everything,
 * so a task an old program leaves behind cannot log or call tools during a later run. This module never
 * reads a property of, calls, or inspects a value from the program's realm; it only receives strings.
 *
 * After each run the worker reports `idle` from a macrotask, which cannot run before the microtask queue
 * drains: a program that leaves microtasks spinning forever never reports idle, and the host replaces it.
 */

const port = parentPort;
if (port === null) throw new Error('runtimes/worker/guest.js must run inside a worker thread');
// Without this flag Node answers `import()` in a context with a main-realm error object, which would
// hand the program this realm's `Function`. runtime.ts starts the worker with it; refuse to run otherwise.
if (!process.execArgv.includes('--experimental-vm-modules')) {
  throw new Error('runtimes/worker/guest.js needs the worker flag --experimental-vm-modules');
}

function post(frame: GuestFrame): void {
  port!.postMessage(frame);
}

interface Run {
  outputLimitBytes: number;
  outputBytes: number;
  ended: boolean;
  /** Pending tool calls by id: each resolves the bridge's promise with "o"+json or "e"+message. */
  calls: Map<number, (answer: string) => void>;
  timers: Map<string, NodeJS.Timeout>;
  /** The run's compiled program, once compiled: the referrer its `import()` calls name. */
  program: Script | undefined;
}

let current: Run | undefined;
let nextCallId = 1;
/** Set when something escaped every handler: the worker serves no further run. */
let tainted = false;

function end(run: Run, frame: GuestFrame): void {
  if (run.ended) return;
  run.ended = true;
  if (current === run) current = undefined;
  for (const timer of run.timers.values()) clearTimeout(timer);
  run.timers.clear();
  // Pending calls are dropped: their promises never settle, so the program's awaits stay asleep forever.
  run.calls.clear();
  post(frame);
  setImmediate(() => {
    if (tainted) process.exit(1);
    post({ type: 'idle' });
    // The next realm is built after the report, so idle stays prompt; a run arriving meanwhile waits for it.
    setImmediate(() => (prepared ??= prepareRealm()));
  });
}

function outputLimitFrame(run: Run): GuestFrame {
  return { type: 'failure', kind: 'output-limit', message: runMessages.outputLimit(run.outputLimitBytes).message };
}

/** Counts output against the cap; past it, the run ends with output-limit. */
function spend(run: Run, bytes: number): boolean {
  run.outputBytes += bytes;
  if (run.outputBytes <= run.outputLimitBytes) return true;
  end(run, outputLimitFrame(run));
  return false;
}

/** What the bridge does for a run; every argument is a string the realm sent. */
const operations: Record<string, (run: Run, a: string, b: string, c: string) => string | Promise<string>> = {
  log(run, text) {
    for (const line of text.split('\n')) {
      if (!spend(run, logLineBytes(line))) return 'closed';
      post({ type: 'log', line });
    }
    return 'ok';
  },
  call(run, namespace, member, args) {
    const id = nextCallId++;
    post({ type: 'call', id, namespace, member, args });
    return new Promise((resolve) => run.calls.set(id, resolve));
  },
  sleep(run, id, ms) {
    const delay = Number(ms);
    return new Promise((resolve) => {
      run.timers.set(
        id,
        setTimeout(() => {
          run.timers.delete(id);
          resolve('fired');
        }, delay),
      );
    });
  },
  cancel(run, id) {
    clearTimeout(run.timers.get(id));
    run.timers.delete(id);
    return 'ok';
  },
  result(run, value) {
    if (spend(run, valueBytes(value))) end(run, { type: 'result', value });
    return 'ok';
  },
  failure(run, kind, name, message) {
    if (!GUEST_ERROR_KINDS.has(kind as GuestFailureKind)) return 'closed';
    end(run, { type: 'failure', kind: kind as GuestFailureKind, ...(name === '' ? {} : { name }), message });
    return 'ok';
  },
};

/** The run a realm serves; unset while the realm waits for its run, so its bridge is closed until then. */
interface RunSlot {
  run: Run | undefined;
}

/**
 * The program realm's only way out. Strings in, a string (or a promise of one) out; never throws.
 * A promise it returns never rejects, and never settles once the run has ended.
 */
function makeBridge(slot: RunSlot): (...request: unknown[]) => string | Promise<string> {
  return (op, a, b, c) => {
    const run = slot.run;
    if (run === undefined || run.ended) return 'closed';
    if (typeof op !== 'string' || typeof a !== 'string' || typeof b !== 'string' || typeof c !== 'string')
      return 'closed';
    if (!Object.hasOwn(operations, op)) return 'closed';
    try {
      return operations[op]!(run, a, b, c);
    } catch {
      return 'closed';
    }
  };
}

/**
 * `import()` inside a context would otherwise reject with a main-realm error. This hook answers with a
 * promise that never settles and ends the run; strip-types.ts already refuses the syntax, so reaching
 * this means the program got past the compiler's reading of its source.
 */
function refuseImport(_specifier: unknown, referrer: unknown): Promise<never> {
  // Only the current run's own program ends its run: an old program's leftover task must not end a later one.
  if (current !== undefined && referrer === current.program) {
    end(current, {
      type: 'failure',
      kind: 'exception',
      name: 'Error',
      message: 'import() is not available: a program reaches the outside only through its bindings',
    });
  }
  return new Promise(() => {});
}

// Compiled once; a Script is not bound to a context, so each run evaluates it in its own.
const bootstrapScript = new Script(`(${realmBootstrap.toString()})`, {
  filename: 'concord-realm-bootstrap.js',
  importModuleDynamically: refuseImport as never,
});

/** A fresh realm, bootstrapped and waiting for its run. */
interface PreparedRealm {
  context: Context;
  slot: RunSlot;
  bind: ReturnType<typeof realmBootstrap>;
}

function prepareRealm(): PreparedRealm {
  // No string code generation (eval, Function) and no WebAssembly compilation inside the program's realm.
  const context = createContext(constants.DONT_CONTEXTIFY, {
    name: 'program',
    codeGeneration: { strings: false, wasm: false },
  });
  const bootstrap = bootstrapScript.runInContext(context, { displayErrors: false }) as typeof realmBootstrap;
  const slot: RunSlot = { run: undefined };
  return { context, slot, bind: bootstrap(makeBridge(slot)) };
}

/** Built between runs, so a run does not wait for its realm. */
let prepared: PreparedRealm | undefined = prepareRealm();

function startRun(frame: Extract<HostFrame, { type: 'run' }>): void {
  const run: Run = {
    outputLimitBytes: frame.outputLimitBytes,
    outputBytes: 0,
    ended: false,
    calls: new Map(),
    timers: new Map(),
    program: undefined,
  };
  current = run;
  let program: Script;
  try {
    program = new Script(frame.code, { filename: PROGRAM_FILE, importModuleDynamically: refuseImport as never });
    run.program = program;
  } catch (error) {
    // A compile error is created in this realm by the compiler: reading it is safe.
    end(run, {
      type: 'failure',
      kind: 'exception',
      name: 'SyntaxError',
      message: error instanceof Error ? error.message : String(error),
    });
    return;
  }
  try {
    const realm = prepared ?? prepareRealm();
    prepared = undefined;
    realm.slot.run = run;
    const start = realm.bind(JSON.stringify({ namespaces: frame.namespaces }));
    // Evaluating the wrapper only creates the program's function; `start` calls it from inside the realm.
    start(program.runInContext(realm.context, { displayErrors: false }));
  } catch {
    // Whatever was thrown may belong to the program's realm: it is not looked at.
    end(run, {
      type: 'failure',
      kind: 'exception',
      message: 'the program could not be started (it is not a function body)',
    });
  }
}

function onReply(frame: Extract<HostFrame, { type: 'reply' }>): void {
  const resolve = current?.calls.get(frame.id);
  if (resolve === undefined) return;
  current!.calls.delete(frame.id);
  resolve('ok' in frame ? `o${frame.ok}` : `e${frame.failure}`);
}

// A rejection nobody awaited is the program's business (as with asyncio tasks), not a crash of the run.
process.on('unhandledRejection', () => {});
// Every path into the program's realm is guarded, so this is a leftover task of an old program (a
// finalizer, say) or a fault here: the current run finishes, then the worker exits and is replaced.
process.on('uncaughtException', () => {
  if (current === undefined) process.exit(1);
  tainted = true;
});

/** Listens for runs (frames the host sent earlier wait in the port until then) and tells the host it is ready. */
function serve(): void {
  port!.on('message', (raw: HostFrame) => {
    if (raw.type === 'run') startRun(raw);
    else if (raw.type === 'reply') onReply(raw);
  });
  post({ type: 'ready' });
}

// Set only by tests (see WorkerPoolOptions.bootDelayMs): boot finishes that much later, as on a loaded machine.
const bootDelayMs = (workerData as { bootDelayMs?: unknown } | null)?.bootDelayMs;
if (typeof bootDelayMs === 'number' && bootDelayMs > 0) setTimeout(serve, bootDelayMs);
else serve();
