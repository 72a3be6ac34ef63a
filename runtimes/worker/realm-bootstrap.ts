/**
 * The code that builds everything a program can see, evaluated INSIDE the program's own context.
 *
 * `realmBootstrap` is never called in the worker's main realm: guest.ts takes its source text and
 * evaluates it in each fresh context, so every object a program can reach (the namespaces, their
 * functions and promises, the error classes, `console`, the timers) belongs to the program's realm and
 * no constructor chain leads back to the worker's `Function`, `process` or `require`. The function must
 * therefore reference nothing outside its own body, and it runs in strict mode.
 *
 * The only thing from the main realm is `bridge`, held in this closure and nowhere else. It takes and
 * returns strings (or, for calls and timers, a main-realm promise of a string that is awaited only here,
 * never handed to the program). It never throws by contract; every call is still wrapped so that even a
 * stack overflow raised inside it cannot carry a main-realm error to the program.
 *
 * Everything below that can run after the program has started uses only builtins captured before the
 * program exists: a program that patches `JSON`, `Function.prototype.call`, `Array.prototype` or
 * `Object.prototype` cannot reroute or forge what reaches the host. Collections are Maps or
 * null-prototype objects, never arrays (whose inherited setters a program could plant), and no iteration
 * protocol (`for…of`, spread) is used after setup.
 *
 * It runs in two stages: the realm (captured builtins, console, timers) is built ahead of the run; the
 * returned function then builds the run's namespaces from their shapes and returns `start(program)`.
 *
 * Bridge operations (all arguments strings):
 *   log(text) · call(namespace, member, argsJson) → promise of "o"+json | "e"+message ·
 *   sleep(id, ms) → promise of "fired" · cancel(id) · result(json) · failure(kind, name, message).
 * A revoked bridge (the run is over) answers "closed" and a call or sleep never settles.
 *
 * One function by design: it is serialized and evaluated inside the realm, so it may close over nothing outside it,
 * and every builtin it uses must be captured in its own scope before the program can touch the realm.
 */
export function realmBootstrap(
  bridge: (...request: string[]) => unknown,
): (setupJson: string) => (program: unknown) => void {
  type Fn = (...args: unknown[]) => unknown;
  const realm = globalThis as unknown as Record<string, unknown>;
  const call = Function.prototype.call;
  const uncurry = <T extends Fn>(method: T): ((self: unknown, ...args: unknown[]) => unknown) =>
    call.bind(method) as (self: unknown, ...args: unknown[]) => unknown;

  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const create = Object.create;
  const freeze = Object.freeze;
  const getPrototypeOf = Object.getPrototypeOf;
  const getOwnPropertyNames = Object.getOwnPropertyNames;
  const getOwnPropertySymbols = Object.getOwnPropertySymbols;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const objectKeys = Object.keys;
  const hasOwn = Object.hasOwn;
  const isArray = Array.isArray;
  const is = Object.is;
  const isFinite = Number.isFinite;
  const toText = String;
  const parseJson = JSON.parse;
  const stringifyJson = JSON.stringify as (value: unknown) => string;
  const ObjectPrototype = Object.prototype;
  const PromiseCtor = Promise;
  const MapCtor = Map;
  const SetCtor = Set;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const propertyIsEnumerable = uncurry(Object.prototype.propertyIsEnumerable as Fn) as (
    o: unknown,
    k: string,
  ) => boolean;
  const mapSet = uncurry(Map.prototype.set as Fn);
  const mapHas = uncurry(Map.prototype.has as Fn) as (m: unknown, k: unknown) => boolean;
  const mapDelete = uncurry(Map.prototype.delete as Fn);
  const setAdd = uncurry(Set.prototype.add as Fn);
  const setHas = uncurry(Set.prototype.has as Fn) as (s: unknown, v: unknown) => boolean;
  const setDelete = uncurry(Set.prototype.delete as Fn);
  const mapEntries = uncurry(Map.prototype.entries as Fn) as (m: unknown) => {
    next(): IteratorResult<[unknown, unknown]>;
  };
  const setValues = uncurry(Set.prototype.values as Fn) as (s: unknown) => { next(): IteratorResult<unknown> };
  const iteratorNext = uncurry(getPrototypeOf(new Map().entries()).next as Fn) as (
    i: unknown,
  ) => IteratorResult<unknown>;
  const setIteratorNext = uncurry(getPrototypeOf(new Set().values()).next as Fn) as (
    i: unknown,
  ) => IteratorResult<unknown>;
  const mapSize = uncurry(getOwnPropertyDescriptor(Map.prototype, 'size')!.get as Fn) as (m: unknown) => number;
  const setSize = uncurry(getOwnPropertyDescriptor(Set.prototype, 'size')!.get as Fn) as (s: unknown) => number;
  const isPrototypeOf = uncurry(Object.prototype.isPrototypeOf as Fn) as (proto: unknown, v: unknown) => boolean;
  const regexpExec = uncurry(RegExp.prototype.exec as Fn);
  const symbolToString = uncurry(Symbol.prototype.toString as Fn) as (s: unknown) => string;
  const dateToIso = uncurry(Date.prototype.toISOString as Fn) as (d: unknown) => string;
  const dateGetTime = uncurry(Date.prototype.getTime as Fn) as (d: unknown) => number;
  const stringSlice = uncurry(String.prototype.slice as Fn) as (s: string, a: number, b?: number) => string;
  const DatePrototype = Date.prototype;
  const MapPrototype = Map.prototype;
  const SetPrototype = Set.prototype;
  const ErrorPrototype = Error.prototype;
  const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
  const MESSAGE_LIMIT = 10_000;

  /** A bridge call that cannot throw into this realm: a failure inside the bridge reads as "closed". */
  function send(op: string, a = '', b = '', c = ''): unknown {
    try {
      return bridge(op, a, b, c);
    } catch {
      return 'closed';
    }
  }

  /** Awaits the bridge's answer to an asynchronous request; a closed bridge never answers. */
  async function answer(pending: unknown): Promise<string> {
    if (typeof pending === 'string') return new PromiseCtor<string>(() => {});
    let text: unknown;
    try {
      text = await (pending as Promise<unknown>);
    } catch {
      text = undefined;
    }
    return typeof text === 'string' ? text : new PromiseCtor<string>(() => {});
  }

  function safely<T>(read: () => T, fallback: T): T {
    try {
      return read();
    } catch {
      return fallback;
    }
  }

  // ---- lossless JSON, with the same rules and messages as runtimes/seam/json.ts ----

  function pathStep(path: string, key: string | number): string {
    if (typeof key === 'number') return path + '[' + toText(key) + ']';
    return regexpExec(IDENTIFIER, key) !== null ? path + '.' + key : path + '[' + stringifyJson(key) + ']';
  }

  function describe(value: unknown): string {
    if (value === null) return 'null';
    if (isArray(value)) return 'an array';
    switch (typeof value) {
      case 'undefined':
        return 'undefined';
      case 'function':
        return 'a function';
      case 'bigint':
        return 'a bigint';
      case 'symbol':
        return 'a symbol';
      case 'object': {
        const name = safely(
          () => (getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name,
          undefined,
        );
        return typeof name === 'string' && name !== '' ? 'a ' + name + ' object' : 'an object with a custom prototype';
      }
      default:
        return toText(value);
    }
  }

  function scalarProblem(value: unknown): string | undefined {
    switch (typeof value) {
      case 'string':
      case 'boolean':
      case 'object':
        return undefined;
      case 'number':
        if (!isFinite(value)) return toText(value) + ' is not a finite number';
        if (is(value, -0)) return '-0 does not survive JSON (it reads back as 0)';
        return undefined;
      default:
        return describe(value) + ' is not JSON';
    }
  }

  interface JsonFrame {
    source: Record<string | number, unknown>;
    key: string | number;
    keys: string[] | undefined;
    length: number;
    next: number;
  }

  /** Checks that `value` is lossless JSON and writes its text, iteratively; throws a TypeError naming the path. */
  function toJsonText(value: unknown, what: string): string {
    const stack = create(null) as Record<number, JsonFrame>;
    let depth = 0;
    const ancestors = new SetCtor<unknown>();
    const fail = (key: string | number | undefined, problem: string): never => {
      let path = '$';
      for (let i = 1; i < depth; i++) path = pathStep(path, stack[i]!.key);
      if (key !== undefined) path = pathStep(path, key);
      throw new TypeErrorCtor(what + ': ' + path + ': ' + problem);
    };
    const scalarText = (child: unknown, key: string | number | undefined): string | undefined => {
      const problem = scalarProblem(child);
      if (problem !== undefined) fail(key, problem);
      if (child === null) return 'null';
      return typeof child === 'object' ? undefined : stringifyJson(child);
    };
    const open = (source: object, key: string | number | undefined): string => {
      if (setHas(ancestors, source)) fail(key, 'a cycle (the value contains itself) is not JSON');
      let keys: string[] | undefined;
      if (!isArray(source)) {
        const proto = getPrototypeOf(source);
        if (proto !== ObjectPrototype && proto !== null) fail(key, describe(source) + ' is not a plain object');
        const symbols = getOwnPropertySymbols(source);
        if (symbols.length > 0) fail(key, 'a symbol key (' + symbolToString(symbols[0]) + ') is not JSON');
        keys = objectKeys(source);
        const names = getOwnPropertyNames(source);
        if (names.length !== keys.length) {
          for (let i = 0; i < names.length; i++) {
            if (!propertyIsEnumerable(source, names[i]!))
              fail(key, 'key ' + stringifyJson(names[i]) + ' is not enumerable');
          }
        }
      }
      setAdd(ancestors, source);
      const length = keys === undefined ? (source as unknown[]).length : keys.length;
      stack[depth++] = { source: source as JsonFrame['source'], key: key ?? '$', keys, length, next: 0 };
      return keys === undefined ? '[' : '{';
    };

    const rootText = scalarText(value, undefined);
    if (rootText !== undefined) return rootText;
    let text = open(value as object, undefined);
    while (depth > 0) {
      const frame = stack[depth - 1]!;
      if (frame.next === frame.length) {
        setDelete(ancestors, frame.source);
        depth--;
        text += frame.keys === undefined ? ']' : '}';
        continue;
      }
      const index = frame.next++;
      const key = frame.keys === undefined ? index : frame.keys[index]!;
      if (index > 0) text += ',';
      if (frame.keys !== undefined) text += stringifyJson(key) + ':';
      else if (!hasOwn(frame.source, index)) fail(key, 'a hole in a sparse array is not JSON');
      const child = frame.source[key];
      const childText = scalarText(child, key);
      text += childText ?? open(child as object, key);
    }
    return text;
  }

  // ---- errors and log lines ----

  function describeThrown(thrown: unknown): { name: string; message: string } {
    if (thrown === null || (typeof thrown !== 'object' && typeof thrown !== 'function')) {
      return { name: '', message: safely(() => toText(thrown), 'a value that cannot be shown') };
    }
    const error = thrown as { constructor?: { name?: unknown }; name?: unknown; message?: unknown };
    const className = safely(() => error.constructor?.name, undefined);
    const ownName = safely(() => error.name, undefined);
    const name =
      typeof className === 'string' && className !== '' ? className : typeof ownName === 'string' ? ownName : '';
    const message = safely(() => toText(error.message ?? ''), '');
    return { name, message: stringSlice(message, 0, MESSAGE_LIMIT) };
  }

  const LOG_DEPTH = 4;

  function formatKey(key: string): string {
    return regexpExec(IDENTIFIER, key) !== null ? key : "'" + stringSlice(stringifyJson(key), 1, -1) + "'";
  }

  /** A log line for any value, in the spirit of util.inspect; it never runs getters or custom inspectors. */
  function format(value: unknown, depth: number, seen: Set<unknown>): string {
    switch (typeof value) {
      case 'string':
        return depth === 0 ? value : "'" + stringSlice(stringifyJson(value), 1, -1) + "'";
      case 'number':
        return is(value, -0) ? '-0' : toText(value);
      case 'bigint':
        return toText(value) + 'n';
      case 'symbol':
        return symbolToString(value);
      case 'function': {
        const name = safely(() => (value as { name?: unknown }).name, '');
        return typeof name === 'string' && name !== '' ? '[Function: ' + name + ']' : '[Function (anonymous)]';
      }
      case 'object':
        break;
      default:
        return toText(value);
    }
    if (value === null) return 'null';
    if (setHas(seen, value)) return '[Circular]';
    if (isPrototypeOf(ErrorPrototype, value)) {
      const { name, message } = describeThrown(value);
      return (name === '' ? 'Error' : name) + (message === '' ? '' : ': ' + message);
    }
    if (isPrototypeOf(DatePrototype, value)) {
      return safely(() => (isFinite(dateGetTime(value)) ? dateToIso(value) : 'Invalid Date'), '[Date]');
    }
    if (depth > LOG_DEPTH) return isArray(value) ? '[Array]' : '[Object]';
    setAdd(seen, value);
    let parts = '';
    const add = (part: string): void => {
      parts += (parts === '' ? '' : ', ') + part;
    };
    let prefix = '';
    let open = '{';
    let close = '}';
    if (isArray(value)) {
      open = '[';
      close = ']';
      const length = safely(() => (value as unknown[]).length, 0);
      for (let i = 0; i < length; i++)
        add(hasOwn(value, i) ? formatProperty(value, toText(i), depth, seen) : '<empty item>');
    } else if (isPrototypeOf(MapPrototype, value)) {
      prefix = 'Map(' + toText(mapSize(value)) + ') ';
      const entries = mapEntries(value);
      for (let step = iteratorNext(entries); !step.done; step = iteratorNext(entries)) {
        const entry = step.value as [unknown, unknown];
        add(format(entry[0], depth + 1, seen) + ' => ' + format(entry[1], depth + 1, seen));
      }
    } else if (isPrototypeOf(SetPrototype, value)) {
      prefix = 'Set(' + toText(setSize(value)) + ') ';
      const values = setValues(value);
      for (let step = setIteratorNext(values); !step.done; step = setIteratorNext(values))
        add(format(step.value, depth + 1, seen));
    } else {
      const proto = getPrototypeOf(value);
      if (proto === null) prefix = '[Object: null prototype] ';
      else if (proto !== ObjectPrototype) {
        const name = safely(() => (proto as { constructor?: { name?: unknown } }).constructor?.name, undefined);
        prefix = typeof name === 'string' && name !== '' ? name + ' ' : '';
      }
      const keys = objectKeys(value);
      for (let i = 0; i < keys.length; i++)
        add(formatKey(keys[i]!) + ': ' + formatProperty(value, keys[i]!, depth, seen));
    }
    setDelete(seen, value);
    return parts === '' ? prefix + open + close : prefix + open + ' ' + parts + ' ' + close;
  }

  function formatProperty(owner: object, key: string, depth: number, seen: Set<unknown>): string {
    const descriptor = getOwnPropertyDescriptor(owner, key);
    if (descriptor === undefined) return 'undefined';
    if (descriptor.get !== undefined || descriptor.set !== undefined) {
      return descriptor.get === undefined ? '[Setter]' : descriptor.set === undefined ? '[Getter]' : '[Getter/Setter]';
    }
    return format(descriptor.value, depth + 1, seen);
  }

  // ---- the end of the run ----

  let ended = false;

  function endWithFailure(kind: string, name: string, message: string): void {
    if (ended) return;
    ended = true;
    send('failure', kind, name, message);
  }

  /** An error nobody could catch (a timer or microtask callback threw): the run ends with it. */
  function uncaught(thrown: unknown): void {
    const { name, message } = describeThrown(thrown);
    endWithFailure('exception', name, message);
  }

  // ---- what the program sees ----

  function log(...values: unknown[]): void {
    if (ended) return;
    let line = '';
    for (let i = 0; i < values.length; i++)
      line += (i === 0 ? '' : ' ') + safely(() => format(values[i], 0, new SetCtor()), '[unprintable]');
    send('log', line);
  }

  // Timers live as long as the run: the bridge cancels the sleeps it holds when the run ends.
  const timers = new MapCtor<number, true>();
  let nextTimerId = 1;
  const MAX_DELAY = 2_147_483_647;
  function schedule(callback: unknown, delay: unknown, args: unknown[], repeat: boolean): number {
    if (typeof callback !== 'function') throw new TypeErrorCtor('the callback must be a function');
    const ms = typeof delay === 'number' && delay >= 1 && delay <= MAX_DELAY ? delay : 1;
    const id = nextTimerId++;
    mapSet(timers, id, true);
    void (async () => {
      do {
        await answer(send('sleep', toText(id), toText(ms)));
        if (!mapHas(timers, id)) return;
        if (!repeat) mapDelete(timers, id);
        try {
          apply(callback as Fn, undefined, args);
        } catch (thrown) {
          uncaught(thrown);
          return;
        }
      } while (repeat && mapHas(timers, id));
    })();
    return id;
  }
  function cancel(id: unknown): void {
    if (typeof id !== 'number' || !mapHas(timers, id)) return;
    mapDelete(timers, id);
    send('cancel', toText(id));
  }

  const globals = create(null) as Record<string, unknown>;
  globals['console'] = freeze({ log, info: log, warn: log, error: log, debug: log, trace: log });
  globals['setTimeout'] = (callback: unknown, delay?: unknown, ...args: unknown[]) =>
    schedule(callback, delay, args, false);
  globals['setInterval'] = (callback: unknown, delay?: unknown, ...args: unknown[]) =>
    schedule(callback, delay, args, true);
  globals['clearTimeout'] = cancel;
  globals['clearInterval'] = cancel;
  globals['queueMicrotask'] = (callback: unknown): void => {
    if (typeof callback !== 'function') throw new TypeErrorCtor('the callback must be a function');
    void (async () => {
      await undefined;
      try {
        apply(callback as Fn, undefined, []);
      } catch (thrown) {
        uncaught(thrown);
      }
    })();
  };
  for (const name of objectKeys(globals)) {
    defineProperty(realm, name, { value: globals[name], writable: true, enumerable: false, configurable: true });
  }
  // Shared memory, atomics and WebAssembly have no use in a program and only widen what it can touch.
  for (const name of ['SharedArrayBuffer', 'Atomics', 'WebAssembly']) delete realm[name];

  function makeErrorClass(
    name: string,
    memberProperty: string,
  ): new (
    message: string,
    member: string,
    code: unknown,
    data: unknown,
  ) => Error {
    // The computed key gives the class its portable name, so `e.constructor.name` and `e.name` agree.
    const holder = {
      [name]: class extends ErrorCtor {
        constructor(message: string, member: string, code: unknown, data: unknown) {
          super(message);
          defineProperty(this, memberProperty, { value: member, enumerable: true, writable: true, configurable: true });
          defineProperty(this, 'code', { value: code, enumerable: true, writable: true, configurable: true });
          defineProperty(this, 'data', { value: data, enumerable: true, writable: true, configurable: true });
        }
      },
    };
    const errorClass = holder[name]!;
    defineProperty(errorClass.prototype, 'name', { value: name, writable: true, configurable: true });
    return errorClass;
  }

  /** The program's parameters: each namespace, followed by its error class when it has one. */
  function bindings(setupJson: string): unknown[] {
    const setup = parseJson(setupJson) as {
      namespaces: { name: string; members: string[]; errorClass?: { name: string; memberProperty: string } }[];
    };
    const parameters = create(null) as Record<number | 'length', unknown>;
    let parameterCount = 0;
    for (const shape of setup.namespaces) {
      const errorClass =
        shape.errorClass === undefined
          ? undefined
          : makeErrorClass(shape.errorClass.name, shape.errorClass.memberProperty);
      const namespace = create(null) as Record<string, unknown>;
      for (const member of shape.members) {
        const label = shape.name + '[' + stringifyJson(member) + ']';
        const invoke = async (args: unknown): Promise<unknown> => {
          const text = toJsonText(args, 'the arguments of ' + label);
          const reply = await answer(send('call', shape.name, member, text));
          if (reply[0] === 'o') return parseJson(stringSlice(reply, 1));
          // Parsed in this realm: the data the program reads is built from this realm's objects only.
          const failure = parseJson(stringSlice(reply, 1)) as { error: string; code?: unknown; data?: unknown };
          throw errorClass === undefined
            ? new ErrorCtor(failure.error)
            : new errorClass(failure.error, member, failure.code, failure.data);
        };
        defineProperty(namespace, member, { value: invoke, enumerable: true });
      }
      parameters[parameterCount++] = freeze(namespace);
      if (errorClass !== undefined) parameters[parameterCount++] = errorClass;
    }
    parameters.length = parameterCount;
    return parameters as unknown as unknown[];
  }

  async function run(program: Fn, parameters: unknown[]): Promise<void> {
    let returned: unknown;
    try {
      returned = await apply(program, undefined, parameters);
    } catch (thrown) {
      uncaught(thrown);
      return;
    }
    if (ended) return;
    let text: string;
    try {
      text = toJsonText(returned === undefined ? null : returned, 'the returned value');
    } catch (error) {
      endWithFailure('invalid-output', '', describeThrown(error).message);
      return;
    }
    ended = true;
    send('result', text);
  }

  return (setupJson: string) => {
    const parameters = bindings(setupJson);
    return (program: unknown): void => {
      if (typeof program !== 'function') {
        endWithFailure('exception', 'SyntaxError', 'the program is not a function body');
        return;
      }
      void run(program as Fn, parameters);
    };
  };
}
