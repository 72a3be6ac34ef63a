import { JsonValueError, jsonPathStep, nestsDeeperThan, parseJsonValue, rebuildJsonValue, toJsonText } from './json.js';
import type { BindingNamespace, JsonValue, RunResult } from './types.js';

/**
 * The host side of a program's call to `namespace.member`, shared by every backend: the shapes a guest
 * needs to build its globals, and one way to resolve, run and answer a call. Whatever goes wrong (a member
 * that does not exist, arguments or a result that are not lossless JSON, a host function that throws, a
 * result whose getter throws, a cycle, a BigInt) becomes an error answer the program receives as the
 * namespace's error class, with the thrown error's `code` and `data` when it had them. Answering never rejects, so a
 * caller can fire it and forget it.
 */

/** What a guest needs to know of a namespace: its global name, member names and error class. */
export interface NamespaceShape {
  name: string;
  members: string[];
  errorClass?: { name: string; memberProperty: string };
}

export function namespaceShapes(bindings: readonly BindingNamespace[]): NamespaceShape[] {
  return bindings.map((binding) => ({
    name: binding.name,
    members: [...binding.functions.keys()],
    ...(binding.errorClass === undefined
      ? {}
      : { errorClass: { name: binding.errorClass.name, memberProperty: binding.errorClass.memberProperty } }),
  }));
}

/** How messages name a member: `tools.search`, or `tools["exotic-name"]` when it is not an identifier. */
export function callLabel(namespace: string, member: string): string {
  return jsonPathStep(namespace, member);
}

/**
 * What a failed call raises in the program: the message, and what the thrown error carried besides it: its
 * `code` (a string or a safe integer) and its `data` (a lossless JSON value) when it had them.
 */
export interface CallFailure {
  error: string;
  code?: string | number;
  data?: JsonValue;
}

/** A call's answer: the result as checked lossless JSON text, or the failure to raise. */
export type CallAnswer = { okJson: string } | CallFailure;

/** The JSON object a guest receives for a failed call: `{"error": message, "code"?: …, "data"?: …}`. */
export function failureJson(failure: CallFailure): string {
  return JSON.stringify({
    error: failure.error,
    ...(failure.code === undefined ? {} : { code: failure.code }),
    ...(failure.data === undefined ? {} : { data: failure.data }),
  });
}

/** The message of anything thrown, without trusting it: a thrown value may itself throw when read. */
function thrownMessage(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return String(error);
  } catch {
    return 'the host function failed with a value that cannot be read';
  }
}

/** One property of a thrown value, read without trusting it: a getter may throw, a proxy may lie. */
function thrownProperty(error: unknown, key: 'code' | 'data'): unknown {
  if ((typeof error !== 'object' && typeof error !== 'function') || error === null) return undefined;
  try {
    return (error as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * The failure a thrown value becomes: its message, its `code` when that is a string or a safe integer, and
 * its `data` when that is lossless JSON. Data that is not JSON is left out and the message says so.
 */
function thrownFailure(error: unknown, label: string): CallFailure {
  const failure: CallFailure = { error: thrownMessage(error) };
  const code = thrownProperty(error, 'code');
  if (typeof code === 'string' || Number.isSafeInteger(code)) failure.code = code as string | number;
  const data = thrownProperty(error, 'data');
  if (data !== undefined) {
    try {
      failure.data = JSON.parse(toJsonText(data, `the data of the error ${label} threw`)) as JsonValue;
    } catch (problem) {
      failure.error += ` (its data was left out: ${problem instanceof JsonValueError ? problem.message : thrownMessage(problem)})`;
    }
  }
  return failure;
}

/**
 * What one call may carry across the bridge, each way: the UTF-8 bytes of the JSON text of its arguments or its
 * result, and how deep their containers nest. A program that sends a hundred megabytes through a tool, or a tool
 * that answers with them, would take the host past its heap; a value nested past what every guest's decoder reads
 * (CPython's recurses) would kill the guest. Past either bound the program gets a failed call naming it at once,
 * and the run ends as kind `bridge-limit` (`BridgeWatch`). A runtime's config may lower or raise them within
 * `LIMIT_BOUNDS` (`bridgeBytes`, `bridgeDepth`).
 */
export interface BridgeLimits {
  bytes: number;
  depth: number;
}

export const BRIDGE_LIMITS: Readonly<BridgeLimits> = Object.freeze({ bytes: 16 * 1024 * 1024, depth: 500 });

/** The bridge bounds every runtime's config takes (checked against `LIMIT_BOUNDS`). */
export interface BridgeConfig {
  /** The UTF-8 bytes of JSON one call may carry each way (default 16 MiB): past it, kind `bridge-limit`. */
  bridgeBytes?: number;
  /** How deep a value one call carries may nest (default 500 levels): past it, kind `bridge-limit`. */
  bridgeDepth?: number;
}

/** A runtime config's bridge bounds, each defaulting to `BRIDGE_LIMITS`. */
export function bridgeLimitsOf(config: BridgeConfig): BridgeLimits {
  return { bytes: config.bridgeBytes ?? BRIDGE_LIMITS.bytes, depth: config.bridgeDepth ?? BRIDGE_LIMITS.depth };
}

/**
 * The bridge bounds of one run, and the first one its calls passed: a program that catches the failed call still
 * ran with a tool it could not use as written, so the run ends as kind `bridge-limit` whatever it returned.
 */
export class BridgeWatch {
  #passed: string | undefined;

  constructor(readonly limits: BridgeLimits = BRIDGE_LIMITS) {}

  /** Why `text` (and the value it was read from) is past a bound, or undefined; the first is kept. */
  past(text: string, value: unknown, side: Crossing): string | undefined {
    const why = pastBridge(text, value, side, this.limits);
    this.#passed ??= why;
    return why;
  }

  /** The run's result as the run ends: kind `bridge-limit` when a call passed a bound (an abort stays an abort). */
  settle(result: RunResult): RunResult {
    if (this.#passed === undefined || result.error?.kind === 'abort') return result;
    return { logs: result.logs, error: { kind: 'bridge-limit', message: this.#passed } };
  }
}

/** What crosses the bridge, as its bounds name it: a call's arguments, or its result. */
const crossing = {
  arguments: (label: string) => ({ what: `the arguments of ${label}`, is: 'are', nests: 'nest' }),
  result: (label: string) => ({ what: `the result of ${label}`, is: 'is', nests: 'nests' }),
};
type Crossing = ReturnType<(typeof crossing)['result']>;

/** Why a value's JSON text is past the bridge's bounds, or undefined within them. */
function pastBridge(text: string, value: unknown, side: Crossing, limits: BridgeLimits): string | undefined {
  // A UTF-16 unit is at most three UTF-8 bytes: a text well within the bound is not measured byte by byte.
  const bytes = text.length * 3 <= limits.bytes ? text.length : Buffer.byteLength(text);
  if (bytes > limits.bytes)
    return `${side.what} ${side.is} ${bytes.toLocaleString('en-US')} bytes of JSON, past the ${limits.bytes.toLocaleString('en-US')} a call may carry (bridgeBytes)`;
  if (nestsDeeperThan(value, limits.depth))
    return `${side.what} ${side.nests} deeper than the ${limits.depth} levels a call may carry (bridgeDepth)`;
  return undefined;
}

/** The host function behind `namespace.member`, or undefined; a Map lookup, so `__proto__` is just a name. */
function findMember(bindings: readonly BindingNamespace[], namespace: string, member: string) {
  return bindings.find((candidate) => candidate.name === namespace)?.functions.get(member);
}

/**
 * Calls `namespace.member` with arguments already checked as lossless JSON (`argsText` their JSON text, when the
 * guest sent it so). Never rejects.
 */
export async function answerCall(
  bindings: readonly BindingNamespace[],
  namespace: string,
  member: string,
  args: JsonValue,
  watch: BridgeWatch = new BridgeWatch(),
  argsText?: string,
): Promise<CallAnswer> {
  const fn = findMember(bindings, namespace, member);
  const label = callLabel(namespace, member);
  if (fn === undefined) return { error: `${namespace} has no member ${JSON.stringify(member)}` };
  const past = watch.past(argsText ?? toJsonText(args), args, crossing.arguments(label));
  if (past !== undefined) return { error: past };
  let result: unknown;
  try {
    result = await fn(args);
  } catch (error) {
    return thrownFailure(error, label);
  }
  try {
    const okJson = toJsonText(result, `the result of ${label}`);
    const past = watch.past(okJson, result, crossing.result(label));
    return past === undefined ? { okJson } : { error: past };
  } catch (error) {
    // A result that is not JSON is the host's fault, but the program still deserves a failed call.
    return { error: notJsonAnswer(error, label) };
  }
}

/** The failed call a program receives for a result that is not lossless JSON (or cannot even be read). */
function notJsonAnswer(error: unknown, label: string): string {
  const detail =
    error instanceof JsonValueError
      ? error.message
      : `the result of ${label} could not be read: ${thrownMessage(error)}`;
  return `the host answered with a value that is not JSON: ${detail}`;
}

/**
 * A binding's result as a record of the call keeps it: a lossless JSON copy, which later mutation cannot
 * rewrite, or, for a result that is not JSON, the failure the program receives instead, in the words
 * `answerCall` gives it. Recording never throws, so it never turns into a failure the program would not see.
 */
export function recordedResult(
  result: unknown,
  namespace: string,
  member: string,
): { value: JsonValue } | { error: string } {
  const label = callLabel(namespace, member);
  try {
    return { value: rebuildJsonValue(result, `the result of ${label}`) };
  } catch (error) {
    return { error: notJsonAnswer(error, label) };
  }
}

/** Calls `namespace.member` with arguments as JSON text from the guest (checked here). Never rejects. */
export async function answerCallText(
  bindings: readonly BindingNamespace[],
  namespace: string,
  member: string,
  argsJson: string,
  watch: BridgeWatch = new BridgeWatch(),
): Promise<CallAnswer> {
  if (findMember(bindings, namespace, member) === undefined)
    return { error: `${namespace} has no member ${JSON.stringify(member)}` };
  // Measured before it is parsed: a text past the bound is never rebuilt as a value.
  const label = callLabel(namespace, member);
  const tooLong = watch.past(argsJson, null, crossing.arguments(label));
  if (tooLong !== undefined) return { error: tooLong };
  let args: JsonValue;
  try {
    args = parseJsonValue(argsJson, `the arguments of ${label}`);
  } catch (error) {
    return { error: thrownMessage(error) };
  }
  return answerCall(bindings, namespace, member, args, watch, argsJson);
}
