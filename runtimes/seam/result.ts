import { JsonValueError, rebuildJsonValue } from './json.js';
import type { JsonValue, RunError, RunErrorKind } from './types.js';

/**
 * The one decoder for the result a guest reports, `{"value": v}` or `{"error": {"kind", "message", "name"}}`,
 * however it travelled. A guest may only report the kinds a program can cause itself; every other kind
 * (timeout, abort, worker-exit) is the host's to decide.
 */

/** Kinds a guest may report; the host decides the rest. */
export const GUEST_ERROR_KINDS: ReadonlySet<RunErrorKind> = new Set<RunErrorKind>([
  'exception',
  'invalid-output',
  'output-limit',
]);

export type GuestResult = { value: JsonValue } | { error: RunError };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A guest's error report as a RunError, or undefined when its kind or fields are not allowed. */
export function readGuestError(kind: unknown, message: unknown, name: unknown): RunError | undefined {
  if (typeof kind !== 'string' || !GUEST_ERROR_KINDS.has(kind as RunErrorKind) || typeof message !== 'string')
    return undefined;
  if (name !== undefined && name !== null && typeof name !== 'string') return undefined;
  const error: RunError = { kind: kind as RunErrorKind, message };
  if (typeof name === 'string' && name !== '') error.name = name;
  return error;
}

/**
 * A parsed result object as a GuestResult, its value rebuilt as lossless JSON (a value that is not, such as
 * `1e400` or `-0` spelled in JSON text, is the program's output at fault: kind `invalid-output`). Undefined
 * when the object has neither a value nor a well-formed error.
 */
export function readGuestResult(raw: unknown): GuestResult | undefined {
  if (!isRecord(raw)) return undefined;
  if (Object.hasOwn(raw, 'value')) {
    try {
      return { value: rebuildJsonValue(own(raw, 'value'), 'the returned value') };
    } catch (error) {
      if (!(error instanceof JsonValueError)) throw error;
      return { error: { kind: 'invalid-output', message: error.message } };
    }
  }
  const error = own(raw, 'error');
  if (!isRecord(error)) return undefined;
  const decoded = readGuestError(own(error, 'kind'), own(error, 'message'), own(error, 'name'));
  return decoded === undefined ? undefined : { error: decoded };
}
