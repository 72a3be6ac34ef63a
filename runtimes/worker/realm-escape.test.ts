import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BindingNamespace, CodeRuntime, JsonValue, RunResult } from '../seam/types.js';
import { type GuestFrame, globalNames, type NamespaceShape, readGuestFrame } from './protocol.js';
import { createWorkerRuntime } from './runtime.js';
import { stripTypes } from './strip-types.js';
import { spawnGuestWorker } from './worker-pool.js';

// Programs that try to leave their realm: reach the worker's `process`, `require` or globals, keep a
// foothold for a later run, or make the worker run their code from its own frames. Each must fail.

interface Call {
  member: string;
  args: JsonValue;
}

const calls: Call[] = [];
const tools: BindingNamespace = {
  name: 'tools',
  functions: new Map([
    ['echo', async (args: JsonValue) => (calls.push({ member: 'echo', args }), args)],
    ['fail', async () => Promise.reject(new Error('fixture failure'))],
  ]),
  errorClass: { name: 'ToolCallError', memberProperty: 'toolName' },
};

let runtime: CodeRuntime;
beforeAll(() => {
  runtime = createWorkerRuntime({ timeoutMs: 20_000, heapMb: 64 });
});
afterAll(async () => {
  await runtime.dispose();
});

const run = (program: string): Promise<RunResult> => runtime.run({ program, bindings: [tools] });

/**
 * Walks everything reachable from the roots (own properties, accessors, prototypes) and returns the paths
 * of values that are not of this realm: a function whose prototype chain misses this realm's
 * Function.prototype, or an object whose chain misses this realm's Object.prototype.
 */
const FOREIGN_WALK = `
function foreignPaths(roots) {
  const seen = new Set();
  const foreign = [];
  const queue = Object.entries(roots);
  const inRealm = (value) => {
    for (let p = Object.getPrototypeOf(value); p !== null; p = Object.getPrototypeOf(p)) {
      if (p === Object.prototype) return true;
    }
    return Object.getPrototypeOf(value) === null;
  };
  while (queue.length > 0) {
    const [path, value] = queue.shift();
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) continue;
    seen.add(value);
    const foreignFunction = typeof value === 'function' && value !== Function.prototype && !(value instanceof Function);
    if (!inRealm(value) || foreignFunction) foreign.push(path);
    queue.push([path + '.[[Prototype]]', Object.getPrototypeOf(value)]);
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
      const name = path + '.' + String(key);
      if ('value' in descriptor) queue.push([name, descriptor.value]);
      if (descriptor.get) queue.push([name + '.get', descriptor.get]);
      if (descriptor.set) queue.push([name + '.set', descriptor.set]);
    }
  }
  return { foreign, walked: seen.size };
}
`;

describe('the program realm holds nothing of the worker', () => {
  it('every object reachable from the program is of its own realm', async () => {
    const result = await run(
      [
        FOREIGN_WALK,
        'const pending = tools.echo({ a: 1 });',
        'const echoed = await pending;',
        'let failed, refused, missing;',
        'try { await tools.fail({}); } catch (e) { failed = e; }',
        'try { await tools.echo({ n: NaN }); } catch (e) { refused = e; }',
        'try { await tools.missing({}); } catch (e) { missing = e; }',
        'const timer = setTimeout(() => {}, 1); clearTimeout(timer);',
        'const roots = { globalThis, tools, ToolCallError, pending, echoed, failed, refused, missing, console, timer,',
        '  echo: tools.echo, microtask: queueMicrotask, args: arguments, self: foreignPaths, rejected: tools.fail({}).catch((e) => e) };',
        'const { foreign, walked } = foreignPaths(roots);',
        'return { foreign, enough: walked > 500, process: typeof process, require: typeof require, module: typeof module };',
      ].join('\n'),
    );
    expect(result).toEqual({
      value: { foreign: [], enough: true, process: 'undefined', require: 'undefined', module: 'undefined' },
      logs: [],
    });
  });

  it('constructor chains from every binding end at a Function that cannot compile code', async () => {
    const targets = [
      'tools',
      'tools.echo',
      'tools.echo({})',
      'await tools.echo({ x: 1 })',
      'ToolCallError',
      'new ToolCallError("m", "echo")',
      'await tools.fail({}).catch((e) => e)',
      'await tools.echo({ n: NaN }).catch((e) => e)',
      'console',
      'console.log',
      'globalThis',
      'setTimeout',
      'queueMicrotask',
      'Object.getPrototypeOf(tools.echo)',
      'Object.getPrototypeOf(ToolCallError)',
    ];
    const result = await run(
      [
        'const outcomes = {};',
        ...targets.map(
          (target) =>
            `try { const F = (${target}).constructor.constructor; ` +
            `outcomes[${JSON.stringify(target)}] = F === Function || F === Object.getPrototypeOf(async function () {}).constructor ? ` +
            `(() => { try { F("return process")(); return "compiled"; } catch (e) { return e.name; } })() : "foreign"; } ` +
            `catch (e) { outcomes[${JSON.stringify(target)}] = "threw " + e.name; }`,
        ),
        'return outcomes;',
      ].join('\n'),
    );
    expect(result.error).toBeUndefined();
    // `tools` has a null prototype: it has no constructor at all.
    expect(result.value).toEqual(
      Object.fromEntries(targets.map((target) => [target, target === 'tools' ? 'threw TypeError' : 'EvalError'])),
    );
  });

  it('sees exactly the ECMAScript globals plus console, timers and queueMicrotask', async () => {
    const result = await run('return Object.getOwnPropertyNames(globalThis).sort();');
    const expected = [
      'AggregateError',
      'Array',
      'ArrayBuffer',
      'BigInt',
      'BigInt64Array',
      'BigUint64Array',
      'Boolean',
      'DataView',
      'Date',
      'Error',
      'EvalError',
      'FinalizationRegistry',
      'Float32Array',
      'Float64Array',
      'Function',
      'Infinity',
      'Int16Array',
      'Int32Array',
      'Int8Array',
      'Intl',
      'JSON',
      'Map',
      'Math',
      'NaN',
      'Number',
      'Object',
      'Promise',
      'Proxy',
      'RangeError',
      'ReferenceError',
      'Reflect',
      'RegExp',
      'Set',
      'String',
      'Symbol',
      'SyntaxError',
      'TypeError',
      'URIError',
      'Uint16Array',
      'Uint32Array',
      'Uint8Array',
      'Uint8ClampedArray',
      'WeakMap',
      'WeakRef',
      'WeakSet',
      'clearInterval',
      'clearTimeout',
      'console',
      'decodeURI',
      'decodeURIComponent',
      'encodeURI',
      'encodeURIComponent',
      'escape',
      'eval',
      'globalThis',
      'isFinite',
      'isNaN',
      'parseFloat',
      'parseInt',
      'queueMicrotask',
      'setInterval',
      'setTimeout',
      'undefined',
      'unescape',
    ].sort();
    expect(result).toEqual({ value: expected, logs: [] });
  });

  it('cannot compile code from strings or WebAssembly', async () => {
    const result = await run(
      [
        'const attempt = (f) => { try { f(); return "ran"; } catch (e) { return e.name; } };',
        'return [',
        '  attempt(() => eval("1")),',
        '  attempt(() => new Function("return 1")),',
        '  attempt(() => (async () => {}).constructor("return 1")),',
        '  attempt(() => (function* () {}).constructor("yield 1")),',
        '  attempt(() => setTimeout("globalThis.x = 1", 0)),',
        '];',
      ].join('\n'),
    );
    expect(result).toEqual({ value: ['EvalError', 'EvalError', 'EvalError', 'EvalError', 'TypeError'], logs: [] });
  });
});

describe('stack-trace hooks see only their own realm', () => {
  it('CallSite getFunction and getThis never yield a foreign value, wherever a stack is taken', async () => {
    const result = await run(
      [
        'const foreign = [];',
        'const visited = [];',
        'const check = (where) => {',
        '  const sites = new Error().stack;',
        '  if (!visited.includes(where)) visited.push(where);',
        '  for (const site of sites) {',
        '    const read = (f) => { try { return f(); } catch { return undefined; } };',
        '    for (const value of [read(() => site.getFunction()), read(() => site.getThis())]) {',
        '      if (value === undefined || value === null || (typeof value !== "object" && typeof value !== "function")) continue;',
        '      let ok = false;',
        '      for (let p = Object.getPrototypeOf(value); p !== null; p = Object.getPrototypeOf(p)) if (p === Object.prototype) ok = true;',
        '      if (!ok) foreign.push(where + " at " + site.getFunctionName());',
        '    }',
        '  }',
        '};',
        'Error.prepareStackTrace = (error, sites) => sites;',
        'check("program start");',
        'await tools.echo({});',
        'check("after a tool call");',
        'await new Promise((resolve) => setTimeout(() => { check("timer"); resolve(); }, 1));',
        'await new Promise((resolve) => queueMicrotask(() => { check("microtask"); resolve(); }));',
        'console.log({ get x() { check("getter seen by console.log"); return 1; } });',
        'await tools.echo({ get x() { check("getter read for tool arguments"); return 1; } });',
        'const trapped = new Proxy({}, { ownKeys(t) { check("proxy trap in the serializer"); return Reflect.ownKeys(t); } });',
        'await tools.echo(trapped);',
        // The getter comes first: it runs while the value is serialized, before the lists are written.
        'return { get late() { check("getter read for the result"); return true; }, foreign, visited };',
      ].join('\n'),
    );
    expect(result.error).toBeUndefined();
    // console.log does not run getters, so that stack is never taken.
    const visited = [
      'after a tool call',
      'getter read for the result',
      'getter read for tool arguments',
      'microtask',
      'program start',
      'proxy trap in the serializer',
      'timer',
    ];
    const value = result.value as { late: boolean; foreign: string[]; visited: string[] };
    expect({ ...value, visited: [...value.visited].sort() }).toEqual({ late: true, foreign: [], visited });
  });
});

describe('dynamic import', () => {
  it('is refused before the program runs', async () => {
    const result = await run('const fs = await import("node:fs");\nreturn typeof fs.readFileSync;');
    expect(result.error).toMatchObject({ kind: 'exception', name: 'SyntaxError' });
    expect(result.error?.message).toMatch(/`import\(\)` is not available/);
  });

  it('hidden from the compiler by an HTML comment, still ends the run without reaching the module loader', async () => {
    calls.length = 0;
    // V8 reads `<!--` as a comment in scripts; the TypeScript parser reads an expression, so the import
    // call below is invisible to the compile-time check and reaches the runtime hook.
    const result = await run(
      [
        'let hidden = 1 <!-- `',
        'import("node:fs").then((fs) => tools.echo({ leak: typeof fs.readFileSync }), (e) => tools.echo({ leak: typeof e.constructor.constructor("return process")() }));',
        '// `',
        'await new Promise((resolve) => setTimeout(resolve, 50));',
        'return "not reached";',
      ].join('\n'),
    );
    expect(result.error).toMatchObject({
      kind: 'exception',
      message: expect.stringMatching(/import\(\) is not available/),
    });
    expect(calls).toEqual([]);
  });
});

describe('builtins patched by the program do not fool the bootstrap', () => {
  it('logs, tool calls and the result still cross intact', async () => {
    calls.length = 0;
    const result = await run(
      [
        'const noop = () => { throw new Error("patched builtin used"); };',
        'Function.prototype.call = noop; Function.prototype.apply = noop; Function.prototype.bind = noop;',
        'JSON.stringify = () => "{\\"forged\\":true}"; JSON.parse = () => ({ forged: true });',
        'Map.prototype.get = noop; Map.prototype.set = noop; Map.prototype.has = noop; Set.prototype.has = noop; Set.prototype.add = noop;',
        'String.prototype.slice = noop; RegExp.prototype.exec = noop; Array.isArray = () => false; Object.keys = () => [];',
        'const keys = ["0", "1", "length", "source", "key", "keys", "next", "name", "message", "namespaces", "o", "e"];',
        'for (let i = 0; i < 12; i++) Object.defineProperty(Object.prototype, keys[i], { get: noop, set: noop, configurable: true });',
        'Array.prototype[Symbol.iterator] = noop;',
        'console.log("still", { heard: [1] });',
        'const echoed = await tools.echo({ list: [1, "two"], nested: { ok: true } });',
        'let failure;',
        'try { await tools.fail({}); } catch (e) { failure = e instanceof ToolCallError && e.toolName; }',
        'return { echoed, failure, plain: [3, { x: null }] };',
      ].join('\n'),
    );
    expect(result.error).toBeUndefined();
    expect(result.logs).toEqual(['still { heard: [ 1 ] }']);
    expect(calls).toEqual([{ member: 'echo', args: { list: [1, 'two'], nested: { ok: true } } }]);
    expect(result.value).toEqual({
      echoed: { list: [1, 'two'], nested: { ok: true } },
      failure: 'fail',
      plain: [3, { x: null }],
    });
  });

  it('a custom inspector planted on Object.prototype is never called by the worker', async () => {
    calls.length = 0;
    const result = await run(
      [
        'Object.prototype[Symbol.for("nodejs.util.inspect.custom")] = function () { tools.echo({ inspected: true }); return "x"; };',
        'Object.prototype.toJSON = function () { tools.echo({ toJSON: true }); return "x"; };',
        'console.log({ a: 1 }, [2]);',
        'return { a: 1 };',
      ].join('\n'),
    );
    expect(result).toEqual({ value: { a: 1 }, logs: ['{ a: 1 } [ 2 ]'] });
    expect(calls).toEqual([]);
  });
});

/** Drives one guest worker by hand, so that consecutive runs are known to share it. */
class GuestDriver {
  readonly worker: Worker = spawnGuestWorker(64);
  readonly frames: GuestFrame[] = [];
  #waiters: (() => void)[] = [];

  constructor() {
    this.worker.on('message', (raw: unknown) => {
      const frame = readGuestFrame(raw);
      if (frame !== undefined) this.frames.push(frame);
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  async until(predicate: (frame: GuestFrame) => boolean): Promise<GuestFrame> {
    for (;;) {
      const found = this.frames.find(predicate);
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Starts a program; answers every `echo` call and leaves others pending. Returns once idle is reported. */
  async run(program: string): Promise<GuestFrame[]> {
    const namespaces: NamespaceShape[] = [
      { name: 'tools', members: ['echo', 'hang'], errorClass: { name: 'ToolCallError', memberProperty: 'toolName' } },
    ];
    const stripped = await stripTypes(program, globalNames(namespaces));
    if ('error' in stripped) throw new Error(stripped.error.message);
    const first = this.frames.length;
    this.worker.postMessage({ type: 'run', code: stripped.code, namespaces, outputLimitBytes: 100_000 });
    let answered = first;
    for (;;) {
      const frame = await this.until((candidate) => this.frames.indexOf(candidate) >= answered);
      answered = this.frames.indexOf(frame) + 1;
      if (frame.type === 'call' && frame.member === 'echo')
        this.worker.postMessage({ type: 'reply', id: frame.id, ok: frame.args });
      if (frame.type === 'idle') return this.frames.slice(first);
    }
  }

  async dispose(): Promise<void> {
    await this.worker.terminate();
  }
}

describe('one worker, consecutive runs', () => {
  let driver: GuestDriver;
  beforeAll(() => {
    driver = new GuestDriver();
  });
  afterAll(async () => {
    await driver.dispose();
  });

  it('a task an old program leaves behind cannot call tools or log during a later run', async () => {
    const first = await driver.run(
      [
        // A pending call whose reply comes during the next run, a timer due during it, a microtask
        // chain that outlives the run, and a finalizer.
        'tools.hang({}).then(() => tools.echo({ late: "reply" }));',
        'setTimeout(() => { tools.echo({ late: "timer" }); console.log("late timer"); }, 30);',
        'let turns = 0;',
        'const chain = () => { if (++turns < 2000) Promise.resolve().then(chain); else { tools.echo({ late: "microtask" }); console.log("late microtask"); } };',
        'chain();',
        'new FinalizationRegistry(() => tools.echo({ late: "finalizer" })).register({}, 0);',
        'return "first";',
      ].join('\n'),
    );
    expect(first.find((frame) => frame.type === 'result')).toEqual({ type: 'result', value: '"first"' });
    const hang = first.find((frame) => frame.type === 'call' && frame.member === 'hang');
    expect(hang).toBeDefined();

    const secondRun = driver.run(
      [
        'await tools.echo({ second: true });',
        // Garbage and time, so the timer would be due and a finalizer could run.
        'for (let i = 0; i < 50; i++) new Array(10000).fill(i);',
        'await new Promise((resolve) => setTimeout(resolve, 100));',
        'return "second";',
      ].join('\n'),
    );
    // The reply to the first run's pending call arrives while the second run is going.
    driver.worker.postMessage({ type: 'reply', id: (hang as { id: number }).id, ok: '{}' });
    const second = await secondRun;
    expect(second.find((frame) => frame.type === 'result')).toEqual({ type: 'result', value: '"second"' });
    const late = [...first, ...second].filter((frame) => JSON.stringify(frame).includes('late'));
    expect(late).toEqual([]);
  });

  it('globals and builtins patched by one run are gone in the next, on the same worker', async () => {
    await driver.run(
      [
        'globalThis.leftover = 1;',
        'Object.prototype.polluted = true;',
        'Array.prototype.push = () => 0;',
        'Error.prepareStackTrace = () => "patched";',
        'Symbol.prototype.toString = () => "patched";',
        'Promise.prototype.then = function () { return this; };',
        'console.log = () => {};',
        'return 1;',
      ].join('\n'),
    );
    const frames = await driver.run(
      [
        'const list = []; list.push(1);',
        'console.log("heard");',
        'return [typeof leftover, ({}).polluted ?? "clean", list.length, typeof Error.prepareStackTrace, Symbol("s").toString(), await tools.echo(7)];',
      ].join('\n'),
    );
    expect(frames.filter((frame) => frame.type === 'log' || frame.type === 'result')).toEqual([
      { type: 'log', line: 'heard' },
      { type: 'result', value: '["undefined","clean",1,"undefined","Symbol(s)",7]' },
    ]);
  });
});

describe('a program that never lets the worker go idle', () => {
  it('keeps its result, and the worker is replaced so later runs are clean', async () => {
    const spinning = await run('(function spin() { Promise.resolve().then(spin); })();\nreturn "returned";');
    expect(spinning).toEqual({ value: 'returned', logs: [] });
    for (let i = 0; i < 4; i++) {
      const next = await run(`return await tools.echo({ run: ${i} });`);
      expect(next).toEqual({ value: { run: i }, logs: [] });
    }
  });
});
