import type { JsonValue } from './types.js';

/**
 * Lossless JSON: the only values that cross between a program and the host.
 *
 * A value is lossless when `JSON.parse(JSON.stringify(v))` gives it back exactly: finite numbers other
 * than `-0`, strings, booleans, null, arrays without holes and plain objects (prototype
 * `Object.prototype` or null) whose own keys are enumerable strings (a getter is read, as JSON does).
 * Cycles are refused; a sub-value shared by two parents is fine. Every walk here is iterative, so nesting depth is
 * bounded by memory only.
 */

// Captured at load: code sharing this realm later (a program in the worker) cannot swap them out.
const { parse: parseJson, stringify: stringifyJson } = JSON;

/** A value that is not lossless JSON; `path` names where, e.g. `$.items[3]["a-b"]`. */
export class JsonValueError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
    what: string,
  ) {
    super(`${what}: ${path}: ${problem}`);
    this.name = 'JsonValueError';
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Appends one step to a JSON path: `.key` for identifiers, `["key"]` otherwise, `[i]` for indexes. */
export function jsonPathStep(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${stringifyJson(key)}]`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
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
      const proto = Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null;
      const name = proto?.constructor?.name;
      return typeof name === 'string' && name !== '' ? `a ${name} object` : 'an object with a custom prototype';
    }
    default:
      return String(value);
  }
}

/** Why a scalar is not lossless, or undefined when it is; containers return undefined too. */
function scalarProblem(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      if (!Number.isFinite(value)) return `${String(value)} is not a finite number`;
      if (Object.is(value, -0)) return '-0 does not survive JSON (it reads back as 0)';
      return undefined;
    case 'object':
      return undefined;
    default:
      return `${describe(value)} is not JSON`;
  }
}

/** Why a container is not a plain object or dense array, or undefined when it is one. */
function containerProblem(value: object): string | undefined {
  if (Array.isArray(value)) return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return `${describe(value)} is not a plain object`;
  const symbols = Object.getOwnPropertySymbols(value);
  if (symbols.length > 0) return `a symbol key (${String(symbols[0])}) is not JSON`;
  return undefined;
}

/** Keys JSON would drop silently: non-enumerable own string keys of a plain object. */
function hiddenKeyProblem(value: object, keys: readonly string[]): string | undefined {
  const names = Object.getOwnPropertyNames(value);
  if (names.length === keys.length) return undefined;
  const hidden = names.find((name) => !Object.prototype.propertyIsEnumerable.call(value, name));
  return `key ${stringifyJson(hidden)} is not enumerable`;
}

/**
 * Checks that `value` is lossless JSON and returns a fresh copy built only from data (plain objects with
 * every key defined as an own property, so `__proto__` stays an ordinary key and no prototype is ever set
 * from data). Throws JsonValueError naming the first offending path. `what` names the value in the message.
 */
export function rebuildJsonValue(value: unknown, what = 'value'): JsonValue {
  return rebuild(value, what).value;
}

/** The rebuilt value and how deeply its containers nest (0 for a scalar). */
function rebuild(value: unknown, what: string): { value: JsonValue; depth: number } {
  const problem = scalarProblem(value);
  if (problem !== undefined) throw new JsonValueError('$', problem, what);
  if (value === null || typeof value !== 'object') return { value: value as JsonValue, depth: 0 };

  // One frame per container on the current path; the frames' keys spell the JSON path when one is needed.
  interface Frame {
    source: Record<string, unknown> | unknown[];
    key: string | number;
    target: JsonValue[] | { [key: string]: JsonValue };
    /** Own keys of an object source; undefined for an array source, walked by index. */
    keys: string[] | undefined;
    next: number;
  }
  const stack: Frame[] = [];
  // The containers on the current path, to tell a cycle from a sub-value shared by two parents.
  const ancestors = new Set<object>();
  const pathTo = (key: string | number): string => {
    let path = '$';
    for (let i = 1; i < stack.length; i++) path = jsonPathStep(path, stack[i]!.key);
    return jsonPathStep(path, key);
  };
  const open = (source: object, key: string | number): JsonValue[] | { [key: string]: JsonValue } => {
    const path = (): string => (stack.length === 0 ? '$' : pathTo(key));
    if (ancestors.has(source))
      throw new JsonValueError(path(), 'a cycle (the value contains itself) is not JSON', what);
    const problem = containerProblem(source);
    if (problem !== undefined) throw new JsonValueError(path(), problem, what);
    const keys = Array.isArray(source) ? undefined : Object.keys(source);
    const hidden = keys === undefined ? undefined : hiddenKeyProblem(source, keys);
    if (hidden !== undefined) throw new JsonValueError(path(), hidden, what);
    const target = keys === undefined ? [] : {};
    ancestors.add(source);
    stack.push({ source: source as Frame['source'], key, target, keys, next: 0 });
    return target;
  };
  const root = open(value, '$');
  let depth = 1;

  while (stack.length > 0) {
    if (stack.length > depth) depth = stack.length;
    const frame = stack[stack.length - 1]!;
    const { source, target, keys } = frame;
    const length = keys === undefined ? (source as unknown[]).length : keys.length;
    if (frame.next === length) {
      ancestors.delete(source);
      stack.pop();
      continue;
    }
    const index = frame.next++;
    const key = keys === undefined ? index : keys[index]!;
    if (keys === undefined && !Object.hasOwn(source, index)) {
      throw new JsonValueError(pathTo(key), 'a hole in a sparse array is not JSON', what);
    }
    const child = (source as Record<string | number, unknown>)[key];
    const childProblem = scalarProblem(child);
    if (childProblem !== undefined) throw new JsonValueError(pathTo(key), childProblem, what);
    const built = child === null || typeof child !== 'object' ? (child as JsonValue) : open(child, key);
    if (Array.isArray(target)) target.push(built);
    // Assigning `__proto__` would set the prototype: that key alone is defined as an own property.
    else if (key === '__proto__')
      Object.defineProperty(target, key, { value: built, writable: true, enumerable: true, configurable: true });
    else target[key] = built;
  }
  return { value: root, depth };
}

/**
 * Whether the containers of `value` nest more than `limit` deep (a scalar is 0 deep, `[]` 1), found without
 * recursion. A container met again on its own path (a cycle) is not followed, and one already walked at a depth
 * at least as great is not walked again, so a value that shares its parts is read part by part, not path by path.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit < 1) return true;
  interface Frame {
    container: object;
    children: unknown[];
    next: number;
  }
  const walkedAt = new Map<object, number>([[value, 1]]);
  const onPath = new Set<object>([value]);
  const frames: Frame[] = [{ container: value, children: childrenOf(value), next: 0 }];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    if (frame.next === frame.children.length) {
      onPath.delete(frame.container);
      frames.pop();
      continue;
    }
    const child = frame.children[frame.next++];
    if (child === null || typeof child !== 'object' || onPath.has(child)) continue;
    const depth = frames.length + 1;
    if (depth > limit) return true;
    if ((walkedAt.get(child) ?? 0) >= depth) continue;
    walkedAt.set(child, depth);
    onPath.add(child);
    frames.push({ container: child, children: childrenOf(child), next: 0 });
  }
  return false;
}

const childrenOf = (container: object): unknown[] => (Array.isArray(container) ? container : Object.values(container));

/** Throws JsonValueError unless `value` is lossless JSON. */
export function assertJsonValue(value: unknown, what = 'value'): asserts value is JsonValue {
  rebuildJsonValue(value, what);
}

/** The deepest value the native serializer is given: JSON.stringify recurses, and runs out of stack far below memory. */
export const NATIVE_DEPTH_LIMIT = 1_000;

/**
 * Serializes a lossless JSON value without recursion (JSON.stringify recurses and overflows on deep
 * values). Validates on the way: throws JsonValueError for anything that is not lossless JSON.
 */
export function toJsonText(value: unknown, what = 'value'): string {
  const { value: checked, depth } = rebuild(value, what);
  // The native serializer is far faster and safe at shallow depths; deep values take the explicit stack.
  if (depth <= NATIVE_DEPTH_LIMIT) return stringifyJson(checked);
  const parts: string[] = [];
  // Pending output in reverse order: a string is literal text, a one-element box is a value to write.
  const stack: (string | [JsonValue])[] = [[checked]];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      parts.push(item);
      continue;
    }
    const current = item[0];
    if (Array.isArray(current)) {
      parts.push('[');
      stack.push(']');
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push([current[i]!]);
        if (i > 0) stack.push(',');
      }
    } else if (current !== null && typeof current === 'object') {
      parts.push('{');
      stack.push('}');
      const keys = Object.keys(current);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push([current[key]!]);
        stack.push((i > 0 ? ',' : '') + stringifyJson(key) + ':');
      }
    } else {
      parts.push(stringifyJson(current));
    }
  }
  return parts.join('');
}

/** Parses JSON text and rebuilds it as a lossless value; syntax errors and `-0` become JsonValueError. */
export function parseJsonValue(text: string, what = 'value'): JsonValue {
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch (error) {
    throw new JsonValueError('$', `not valid JSON text (${(error as Error).message})`, what);
  }
  return rebuildJsonValue(parsed, what);
}
